import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import { hostname } from 'node:os';
import { CatalogManager } from '../../src/connectors/catalog-manager.js';
import type { Connector } from '../../src/spi/connector.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import type { NodeRow, QueryRow, SystemRuntime, TaskRow } from '../../src/connectors/system/runtime.js';
import { SystemConnector } from '../../src/connectors/system/system-connector.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT } from '../../src/types/types.js';
import { readSplit, readTable, requireTable, testSession } from './helpers.js';

const session = testSession();

/** Records what the test really does: a node (this process), queries, and the scan tasks they ran. */
class RecordingRuntime implements SystemRuntime {
  readonly nodeRows: NodeRow[] = [
    { nodeId: hostname(), httpUri: 'http://127.0.0.1:8080', nodeVersion: process.version, coordinator: true, state: 'ACTIVE' },
  ];
  readonly queryRows: QueryRow[] = [];
  readonly taskRows: TaskRow[] = [];

  nodes(): NodeRow[] {
    return this.nodeRows;
  }
  queries(): QueryRow[] {
    return this.queryRows;
  }
  tasks(): TaskRow[] {
    return this.taskRows;
  }

  /** Scans `schema.table` of `catalog` as query `queryId` and records the query and its task. */
  async scan(catalog: Connector, schema: string, table: string, queryId: string): Promise<void> {
    const query: QueryRow = {
      queryId,
      state: 'RUNNING',
      user: session.user,
      source: null,
      query: `SELECT * FROM ${schema}.${table}`,
      errorCode: null,
      created: Date.now(),
      started: Date.now(),
      end: null,
    };
    this.queryRows.push(query);
    const task: TaskRow = {
      nodeId: this.nodeRows[0].nodeId,
      taskId: `${queryId}.0.0`,
      stageId: `${queryId}.0`,
      queryId,
      state: 'RUNNING',
      splits: 0,
      completedSplits: 0,
      rawInputRows: 0,
      outputRows: 0,
      created: Date.now(),
      end: null,
    };
    this.taskRows.push(task);
    const metadata = await requireTable(catalog, schema, table);
    const splits = await allSplits(catalog.getSplits(session, metadata));
    task.splits = splits.length;
    for (const split of splits) {
      for (const page of await readSplit(
        catalog,
        split,
        metadata.columns.map((c) => c.name),
      )) {
        task.rawInputRows += page.rowCount;
        task.outputRows += page.rowCount;
      }
      task.completedSplits++;
    }
    task.state = query.state = 'FINISHED';
    task.end = query.end = Date.now();
  }
}

describe('system connector', () => {
  let runtime: RecordingRuntime;
  let system: Connector;
  let memory: Connector;

  beforeEach(async () => {
    runtime = new RecordingRuntime();
    const catalogs = new CatalogManager();
    catalogs.register('system', new SystemConnector(runtime));
    const memoryConnector = new MemoryConnector();
    catalogs.register('memory', memoryConnector);
    system = catalogs.get('system') as Connector;
    memory = catalogs.get('memory') as Connector;
    memory.createTable?.(session, { catalog: 'memory', schema: 'default', name: 'n', columns: [{ name: 'x', type: BIGINT }] });
    const rows = Array.from({ length: 70_000 }, (_, i) => BigInt(i));
    await memoryConnector.insert(session, 'default', 'n', [{ rowCount: rows.length, columns: [columnFromScalars(BIGINT, rows)] }]);
    await runtime.scan(memory, 'default', 'n', '20260101_000000_00001_abcde');
  });

  it('has schema runtime with nodes, queries and tasks, plus information_schema', async () => {
    expect(await system.listSchemas(session)).to.deep.equal(['runtime', 'information_schema']);
    expect((await system.listTables(session, 'runtime')).map((t) => t.table)).to.deep.equal(['nodes', 'queries', 'tasks']);
  });

  it('is read-only', async () => {
    expect(system.createSchema).to.equal(undefined);
    expect(system.createTable).to.equal(undefined);
    expect(system.beginInsert).to.equal(undefined);
    expect(system.deleteRows).to.equal(undefined);
  });

  it('runtime.nodes reads the runtime nodes', async () => {
    expect(await readTable(system, 'runtime', 'nodes')).to.deep.equal([
      [hostname(), 'http://127.0.0.1:8080', process.version, true, 'ACTIVE'],
    ]);
  });

  it('runtime.queries reads the recorded queries with timestamp(3) times', async () => {
    const [query] = runtime.queryRows;
    expect(await readTable(system, 'runtime', 'queries')).to.deep.equal([
      [
        query.queryId,
        'FINISHED',
        'test',
        null,
        'SELECT * FROM default.n',
        (query.created as number) * 1000,
        (query.started as number) * 1000,
        (query.end as number) * 1000,
        null,
      ],
    ]);
    const types = (await requireTable(system, 'runtime', 'queries')).columns.map((c) => `${c.name}:${c.type.kind}`);
    expect(types).to.include.members(['created:timestamp', 'query_id:varchar']);
  });

  it('runtime.tasks reports the splits and rows the scan really read', async () => {
    const rows = await readTable(system, 'runtime', 'tasks', [
      'task_id',
      'state',
      'splits',
      'completed_splits',
      'raw_input_rows',
      'output_rows',
    ]);
    expect(rows).to.deep.equal([['20260101_000000_00001_abcde.0.0', 'FINISHED', 2n, 2n, 70_000n, 70_000n]]);
  });

  it('reflects the runtime at read time', async () => {
    await runtime.scan(system, 'runtime', 'nodes', '20260101_000000_00002_abcde');
    const ids = await readTable(system, 'runtime', 'queries', ['query_id']);
    expect(ids.map((r) => r[0])).to.deep.equal(['20260101_000000_00001_abcde', '20260101_000000_00002_abcde']);
  });

  it('information_schema.columns describes the runtime tables', async () => {
    const rows = await readTable(system, 'information_schema', 'columns', ['table_name', 'column_name', 'data_type']);
    expect(rows.filter((r) => r[0] === 'nodes')).to.deep.equal([
      ['nodes', 'node_id', 'varchar'],
      ['nodes', 'http_uri', 'varchar'],
      ['nodes', 'node_version', 'varchar'],
      ['nodes', 'coordinator', 'boolean'],
      ['nodes', 'state', 'varchar'],
    ]);
    expect(rows.filter((r) => r[0] === 'tasks' && r[1] === 'splits')).to.deep.equal([['tasks', 'splits', 'bigint']]);
  });

  it('reports a missing schema on scan', async () => {
    const split = { catalog: 'system', schema: 'nope', table: 'x', info: { rowTable: 'x' } };
    expect(() => system.createPageSource(session, split, [])).to.throw("Schema 'system.nope' does not exist");
  });
});
