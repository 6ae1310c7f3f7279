// Runs SQL in-process through the real statement executor over memory and system catalogs, and
// returns rows as scalars: the whole engine below the HTTP layer, without mocks. Queries run as a
// single node runs them: their fragments as tasks of this process, exchanging pages in process.

import { CatalogManager } from '../../src/connectors/catalog-manager.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { TpchConnector } from '../../src/connectors/tpch/tpch-connector.js';
import type { Session } from '../../src/spi/session.js';
import { StatementExecutor } from '../../src/coordinator/statement-executor.js';
import { analyzeQuery, type AnalyzedQuery } from '../../src/sql/analyzer/analyzer.js';
import { StatementMetadata } from '../../src/sql/metadata/statement-metadata.js';
import { expressionEvaluator } from '../../src/exec/expression/index.js';
import type * as ast from '../../src/sql/parser/ast.js';
import type { OutputColumn, StatementResult } from '../../src/spi/statement-result.js';
import { newQueryProgress } from '../../src/spi/query-progress.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { getScalar } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { typeName } from '../../src/types/types.js';
import { NodeManager } from '../../src/coordinator/node-manager.js';
import { clusterView } from '../../src/coordinator/scheduler/cluster-view.js';
import { TaskEndpoint } from '../../src/worker/task-endpoint.js';
import { CancelHold } from '../../src/coordinator/cancel-hold.js';
import { localTaskOutputs, TaskManager } from '../../src/worker/task-manager.js';

export interface QueryRows {
  columns: OutputColumn[];
  types: string[];
  rows: Scalar[][];
  result: StatementResult;
}

export class EngineHarness {
  readonly catalogs = new CatalogManager();
  readonly executor: StatementExecutor;
  readonly session: Session;
  private sequence = 0;
  /** The memory of each query running now, by id: its tasks here reserve under it. */
  private readonly running = new Map<string, MemoryContext>();

  /** `singleNode`: plan as a single-node server does (single-node-aggregation.ts); off by default, as the harness's plan tests expect. */
  constructor(options: { memoryLimitBytes?: number; singleNode?: boolean } = {}) {
    this.catalogs.register('memory', new MemoryConnector('memory'));
    this.catalogs.register('tpch', new TpchConnector('tpch'));
    const limit = options.memoryLimitBytes ?? 1 << 30;
    const nodeMemory = MemoryContext.nodePool(limit);
    const self = { nodeId: 'harness', uri: 'http://harness.invalid' };
    const tasks: TaskManager = new TaskManager({
      catalogs: this.catalogs,
      nodeMemory,
      queryMaxMemoryPerNode: limit,
      coordinatedQueryMemory: (queryId) => this.running.get(queryId),
      outputBuffer: {},
      exchange: { local: localTaskOutputs(self.nodeId, () => tasks) },
      refusal: () => undefined,
    });
    const endpoint = new TaskEndpoint(tasks, { nodeId: self.nodeId, internalUri: self.uri });
    const cluster = clusterView({
      nodes: new NodeManager(),
      self: () => self,
      includeCoordinator: undefined,
      headers: () => ({}),
      endpoint,
      queryMaxMemoryBytes: limit,
      requiredWorkersMaxWaitMillis: 0,
      remoteTaskMaxErrorDurationMillis: 60_000,
    });
    this.executor = new StatementExecutor(this.catalogs, {
      queryMaxMemoryBytes: limit,
      nodeMemory,
      cluster,
      singleNode: options.singleNode,
      validatePlans: true,
    });
    this.session = {
      queryId: 'test',
      user: 'test',
      catalog: 'memory',
      schema: 'default',
      timeZone: 'UTC',
      properties: new Map(),
      preparedStatements: new Map(),
      clientTags: [],
      startTime: Date.UTC(2026, 10, 21, 12, 0, 0),
    };
  }

  /** Runs one statement and drains its rows; session changes are applied as a client would. */
  /** `signal`: cancels the query when it aborts, as a client's DELETE does. */
  async query(sql: string, signal: AbortSignal = new AbortController().signal): Promise<QueryRows> {
    const memory = new MemoryContext(
      `query${this.sequence++}`,
      this.executor.options.queryMaxMemoryBytes,
      this.executor.options.nodeMemory,
    );
    // As the query manager does: a cancel waits while a write commits (see CancelHold).
    const hold = new CancelHold();
    const cancel = new AbortController();
    const onAbort = () => hold.request(() => cancel.abort(signal.reason));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const context = {
      signal: cancel.signal,
      memory,
      progress: newQueryProgress(),
      holdCancel: <T>(work: () => Promise<T>) => hold.hold(work),
    };
    const queryId = `q${this.sequence}`;
    this.running.set(queryId, memory);
    try {
      const result = await this.executor.execute(sql, { ...this.session, queryId }, context);
      const rows: Scalar[][] = [];
      for await (const page of result.pages) {
        for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
      }
      const changes = result.sessionChanges;
      if (changes.setCatalog) this.session.catalog = changes.setCatalog;
      if (changes.setSchema) this.session.schema = changes.setSchema;
      for (const [k, v] of changes.setSessionProperties) this.session.properties.set(k, v);
      for (const k of changes.resetSessionProperties) this.session.properties.delete(k);
      for (const [k, v] of changes.addedPreparedStatements) this.session.preparedStatements.set(k, v);
      for (const k of changes.deallocatedPreparedStatements) this.session.preparedStatements.delete(k);
      if (changes.startedTransactionId !== undefined) this.session.transaction = { id: changes.startedTransactionId };
      if (changes.clearTransactionId) this.session.transaction = {};
      return { columns: result.columns, types: result.columns.map((c) => typeName(c.type)), rows, result };
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.running.delete(queryId);
      memory.close();
    }
  }

  /** Rows only, with numbers/bigints as JS values. */
  /** Runs `work` with these session properties set, then unsets them. */
  async withSession<T>(properties: Record<string, string>, work: () => Promise<T>): Promise<T> {
    for (const [name, value] of Object.entries(properties)) this.session.properties.set(name, value);
    try {
      return await work();
    } finally {
      for (const name of Object.keys(properties)) this.session.properties.delete(name);
    }
  }

  async rows(sql: string): Promise<Scalar[][]> {
    return (await this.query(sql)).rows;
  }

  async run(...statements: string[]): Promise<void> {
    for (const s of statements) await this.query(s);
  }

  /** A query analyzed as the statement executor analyzes it (its metadata loaded first). */
  async analyze(query: ast.Query, session: Session = this.session): Promise<AnalyzedQuery> {
    const metadata = new StatementMetadata(this.catalogs, session);
    return metadata.analyze(query, () => analyzeQuery(query, metadata, expressionEvaluator));
  }

  /** The engine error a statement fails with; throws when it succeeds or fails otherwise. */
  async failure(sql: string): Promise<EngineError> {
    try {
      await this.query(sql);
    } catch (e) {
      if (e instanceof EngineError) return e;
      throw e;
    }
    throw new Error(`expected ${sql} to fail`);
  }
}
