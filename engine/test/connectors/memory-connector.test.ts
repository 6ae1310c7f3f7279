import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import type { TableMetadata } from '../../src/spi/connector.js';
import { MAX_SPLIT_ROWS, MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { decodedColumns } from '../../src/columnar/decoded-columns.js';
import { columnFromScalars, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, INTEGER, decimal, varchar, type SqlType } from '../../src/types/types.js';
import { pageRows, readSplit, readSplits, readTable, requireTable, testSession } from './helpers.js';

const session = testSession();

function page(types: SqlType[], rows: Scalar[][]): Page {
  return {
    rowCount: rows.length,
    columns: types.map((t, i) =>
      columnFromScalars(
        t,
        rows.map((r) => r[i]),
      ),
    ),
  };
}

function tableMeta(schema: string, name: string, columns: [string, SqlType][]): TableMetadata {
  return { catalog: 'memory', schema, name, columns: columns.map(([n, type]) => ({ name: n, type })) };
}

const ORDERS: [string, SqlType][] = [
  ['id', BIGINT],
  ['name', varchar(25)],
  ['price', decimal(12, 2)],
];
const ORDER_TYPES = ORDERS.map(([, t]) => t);

async function engineError(fn: () => unknown): Promise<EngineError> {
  try {
    await fn();
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error('expected an EngineError');
}

async function rejectedEngineError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(EngineError);
  return error as EngineError;
}

function ids(count: number, from = 0): Scalar[][] {
  return Array.from({ length: count }, (_, i) => [BigInt(from + i)]);
}

describe('memory connector', () => {
  let memory: MemoryConnector;

  beforeEach(async () => {
    memory = new MemoryConnector();
    await memory.createTable(session, tableMeta('default', 'orders', ORDERS));
  });

  describe('schemas', () => {
    it('has the default schema', async () => {
      expect(await new MemoryConnector().listSchemas(session)).to.deep.equal(['default']);
    });

    it('creates and lists schemas', async () => {
      await memory.createSchema(session, 's1');
      expect(await memory.listSchemas(session)).to.deep.equal(['default', 's1']);
    });

    it('refuses to create an existing schema', async () => {
      await memory.createSchema(session, 's');
      const e = await engineError(() => memory.createSchema(session, 's'));
      expect(e.errorName).to.equal('ALREADY_EXISTS');
      expect(e.message).to.equal("Schema 'memory.s' already exists");
    });

    it('refuses to drop a non-empty schema unless cascading', async () => {
      const e = await engineError(() => memory.dropSchema(session, 'default', false));
      expect(e.errorName).to.equal('SCHEMA_NOT_EMPTY');
      expect(e.message).to.equal("Cannot drop non-empty schema 'default'");
      await memory.dropSchema(session, 'default', true);
      expect(await memory.listSchemas(session)).to.deep.equal([]);
      expect(await memory.getTable(session, 'default', 'orders')).to.equal(undefined);
    });

    it('drops an empty schema', async () => {
      await memory.createSchema(session, 'empty');
      await memory.dropSchema(session, 'empty', false);
      expect(await memory.listSchemas(session)).to.deep.equal(['default']);
    });

    it('reports a missing schema', async () => {
      const e = await engineError(() => memory.dropSchema(session, 'nope', false));
      expect(e.errorName).to.equal('SCHEMA_NOT_FOUND');
      expect(e.message).to.equal("Schema 'memory.nope' does not exist");
      expect((await engineError(() => memory.createTable(session, tableMeta('nope', 't', ORDERS)))).errorName).to.equal('SCHEMA_NOT_FOUND');
      expect((await engineError(() => memory.insert(session, 'nope', 't', []))).errorName).to.equal('SCHEMA_NOT_FOUND');
    });
  });

  describe('tables', () => {
    it('lists and describes tables', async () => {
      await memory.createSchema(session, 's');
      await memory.createTable(session, tableMeta('s', 'b', [['x', INTEGER]]));
      await memory.createTable(session, tableMeta('s', 'a', [['y', INTEGER]]));
      expect(await memory.listTables(session, 's')).to.deep.equal([
        { schema: 's', table: 'a' },
        { schema: 's', table: 'b' },
      ]);
      expect(await memory.listTables(session)).to.have.length(3);
      expect(await memory.listTables(session, 'missing')).to.deep.equal([]);
      const orders = await memory.getTable(session, 'default', 'orders');
      expect(orders?.catalog).to.equal('memory');
      expect(orders?.columns.map((c) => c.name)).to.deep.equal(['id', 'name', 'price']);
    });

    it('refuses duplicate tables and duplicate column names', async () => {
      const e = await engineError(() => memory.createTable(session, tableMeta('default', 'orders', ORDERS)));
      expect(e.errorName).to.equal('ALREADY_EXISTS');
      expect(e.message).to.equal("Table 'memory.default.orders' already exists");
      const d = await engineError(() =>
        memory.createTable(
          session,
          tableMeta('default', 'd', [
            ['a', INTEGER],
            ['a', BIGINT],
          ]),
        ),
      );
      expect(d.errorName).to.equal('DUPLICATE_COLUMN_NAME');
    });

    it('drops tables', async () => {
      await memory.dropTable(session, 'default', 'orders');
      expect(await memory.getTable(session, 'default', 'orders')).to.equal(undefined);
      const e = await engineError(() => memory.dropTable(session, 'default', 'orders'));
      expect(e.errorName).to.equal('TABLE_NOT_FOUND');
      expect(e.message).to.equal("Table 'memory.default.orders' does not exist");
    });
  });

  describe('insert and scan', () => {
    it('returns the inserted rows, only the requested columns in the requested order', async () => {
      const rows: Scalar[][] = [
        [1n, 'apple', 150n],
        [2n, null, -2n],
        [3n, 'cherry', null],
      ];
      expect(await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, rows)])).to.equal(3);
      expect(await readTable(memory, 'default', 'orders')).to.deep.equal(rows);
      expect(await readTable(memory, 'default', 'orders', ['price', 'id'])).to.deep.equal([
        [150n, 1n],
        [-2n, 2n],
        [null, 3n],
      ]);
    });

    it('an empty table reads as no rows', async () => {
      expect(await readTable(memory, 'default', 'orders')).to.deep.equal([]);
    });

    it('merges many small inserts into few pages', async () => {
      await memory.createTable(session, tableMeta('default', 'n', [['id', BIGINT]]));
      for (let i = 0; i < 100; i++) await memory.insert(session, 'default', 'n', [page([BIGINT], ids(1, i))]);
      const table = await requireTable(memory, 'default', 'n');
      const splits = await allSplits(memory.getSplits(session, table));
      expect(splits).to.have.length(1);
      const pages = await readSplit(memory, splits[0], ['id']);
      expect(pages).to.have.length(1);
      expect(pageRows(pages[0])).to.deep.equal(ids(100));
    });

    it('serves pages of at most 8192 rows and splits of at most MAX_SPLIT_ROWS rows', async () => {
      await memory.createTable(session, tableMeta('default', 'big', [['id', BIGINT]]));
      const total = 150_000;
      // Inserted as pages of awkward sizes, so rows must be regrouped.
      const pages: Page[] = [];
      for (let from = 0; from < total; from += 10_007) pages.push(page([BIGINT], ids(Math.min(10_007, total - from), from)));
      expect(await memory.insert(session, 'default', 'big', pages)).to.equal(total);
      const splits = await allSplits(memory.getSplits(session, await requireTable(memory, 'default', 'big')));
      expect(splits).to.have.length(Math.ceil(total / MAX_SPLIT_ROWS));
      let seen = 0;
      let outOfOrder = 0;
      for (const split of splits) {
        let splitRows = 0;
        for (const p of await readSplit(memory, split, ['id'])) {
          expect(p.rowCount).to.be.at.most(8192);
          const values = p.columns[0].values as BigInt64Array;
          for (let i = 0; i < p.rowCount; i++) if (values[i] !== BigInt(seen + i)) outOfOrder++;
          seen += p.rowCount;
          splitRows += p.rowCount;
        }
        expect(splitRows).to.be.at.most(MAX_SPLIT_ROWS);
      }
      expect(seen).to.equal(total);
      expect(outOfOrder).to.equal(0);
    });

    it('decodes a string column once and shares it between scans', async () => {
      await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, [[1n, 'a', 1n]])]);
      await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, [[2n, 'b', 2n]])]);
      const table = await requireTable(memory, 'default', 'orders');
      const [first] = await readSplit(memory, (await allSplits(memory.getSplits(session, table)))[0], ['name']);
      const [second] = await readSplit(memory, (await allSplits(memory.getSplits(session, table)))[0], ['name']);
      expect(first.columns[0].values).to.deep.equal(['a', 'b']);
      expect(second.columns[0].values).to.equal(first.columns[0].values);
    });

    it('keeps no decoded copy of the strings it stores until a scan reads them', async () => {
      // A copy kept at insert sat in the main thread's heap, which the threads' scans never read.
      const before = decodedColumns.sizeInBytes;
      await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, [[1n, 'stored once', 1n]])]);
      expect(decodedColumns.sizeInBytes).to.equal(before);
      const table = await requireTable(memory, 'default', 'orders');
      const [read] = await readSplit(memory, (await allSplits(memory.getSplits(session, table)))[0], ['name']);
      expect(read.columns[0].values).to.deep.equal(['stored once']);
      expect(decodedColumns.sizeInBytes).to.be.above(before);
    });

    it('accepts unbounded varchar for a varchar(n) column and reports it as the table type', async () => {
      await memory.insert(session, 'default', 'orders', [page([BIGINT, varchar(), decimal(12, 2)], [[1n, 'x', 0n]])]);
      const table = await requireTable(memory, 'default', 'orders');
      const [p] = await readSplit(memory, (await allSplits(memory.getSplits(session, table)))[0], ['name']);
      expect(p.columns[0].type).to.deep.equal(varchar(25));
    });

    it('refuses pages that do not match the table', async () => {
      expect((await rejectedEngineError(memory.insert(session, 'default', 'orders', [page([BIGINT], [[1n]])]))).message).to.match(
        /got 1 columns, the table has 3/,
      );
      expect(
        (
          await rejectedEngineError(
            memory.insert(session, 'default', 'orders', [page([INTEGER, varchar(25), decimal(12, 2)], [[1, 'x', 0n]])]),
          )
        ).message,
      ).to.match(/got integer for column 'id' of type bigint/);
    });

    it('refuses unknown columns', async () => {
      const split = (await allSplits(memory.getSplits(session, await requireTable(memory, 'default', 'orders'))))[0];
      expect(() => memory.createPageSource(session, split, ['nope'])).to.throw("Column 'nope' cannot be resolved");
    });
  });

  describe('delete', () => {
    it('removes the selected rows and returns their count', async () => {
      await memory.insert(session, 'default', 'orders', [
        page(ORDER_TYPES, [
          [1n, 'a', 1n],
          [2n, 'b', 2n],
          [3n, 'c', 3n],
          [4n, null, 4n],
        ]),
      ]);
      const deleted = await memory.deleteRows(session, 'default', 'orders', (p) => {
        const idColumn = p.columns[0].values as BigInt64Array;
        return Uint8Array.from(idColumn, (id) => (id % 2n === 0n ? 1 : 0));
      });
      expect(deleted).to.equal(2);
      expect(await readTable(memory, 'default', 'orders')).to.deep.equal([
        [1n, 'a', 1n],
        [3n, 'c', 3n],
      ]);
      expect(await memory.deleteRows(session, 'default', 'orders', (p) => new Uint8Array(p.rowCount))).to.equal(0);
      expect(await memory.deleteRows(session, 'default', 'orders', (p) => new Uint8Array(p.rowCount).fill(1))).to.equal(2);
      expect(await readTable(memory, 'default', 'orders')).to.deep.equal([]);
    });
  });

  describe('snapshot consistency', () => {
    beforeEach(async () => {
      await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, [[1n, 'old', 1n]])]);
    });

    it('splits made before an insert read the rows as they were', async () => {
      const table = await requireTable(memory, 'default', 'orders');
      const before = await allSplits(memory.getSplits(session, table));
      await memory.insert(session, 'default', 'orders', [page(ORDER_TYPES, [[2n, 'new', 2n]])]);
      expect(await readSplits(memory, before, ['id', 'name'])).to.deep.equal([[1n, 'old']]);
      const after = await allSplits(memory.getSplits(session, table));
      expect(await readSplits(memory, after, ['id', 'name'])).to.deep.equal([
        [1n, 'old'],
        [2n, 'new'],
      ]);
    });

    it('a reader in the middle of a scan keeps its snapshot while an insert and a delete land', async () => {
      await memory.createTable(session, tableMeta('default', 'big', [['id', BIGINT]]));
      await memory.insert(session, 'default', 'big', [page([BIGINT], ids(20_000))]);
      const table = await requireTable(memory, 'default', 'big');
      const [split] = await allSplits(memory.getSplits(session, table));
      const iterator = memory.createPageSource(session, split, ['id'])[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done).to.equal(false);
      let seen = (first.value as Page).rowCount;

      await memory.insert(session, 'default', 'big', [page([BIGINT], ids(5, 20_000))]);
      await memory.deleteRows(session, 'default', 'big', (p) => new Uint8Array(p.rowCount).fill(1));
      expect(await readTable(memory, 'default', 'big')).to.deep.equal([]);

      for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen += next.value.rowCount;
      expect(seen).to.equal(20_000);
    });

    it('splits made before a DROP TABLE still read their snapshot', async () => {
      const splits = await allSplits(memory.getSplits(session, await requireTable(memory, 'default', 'orders')));
      await memory.dropTable(session, 'default', 'orders');
      expect(await readSplits(memory, splits, ['name'])).to.deep.equal([['old']]);
    });

    it('a superseded snapshot whose splits were never read expires after the retention time', async () => {
      let now = 1_000;
      const clocked = new MemoryConnector('memory', { snapshotRetentionMillis: 100, now: () => now });
      await clocked.createTable(session, tableMeta('default', 't', [['id', BIGINT]]));
      await clocked.insert(session, 'default', 't', [page([BIGINT], ids(1))]);
      const table = await requireTable(clocked, 'default', 't');
      const stale = await allSplits(clocked.getSplits(session, table));
      await clocked.insert(session, 'default', 't', [page([BIGINT], ids(1, 1))]);
      now += 101;
      await allSplits(clocked.getSplits(session, table)); // pinning sweeps expired pins
      expect(() => clocked.createPageSource(session, stale[0], ['id'])).to.throw(
        /Version 1 of table 'memory.default.t' is no longer available/,
      );
    });

    it('a split of the current version stays readable after its pin is released', async () => {
      const [split] = await allSplits(memory.getSplits(session, await requireTable(memory, 'default', 'orders')));
      expect(await readSplits(memory, [split], ['id'])).to.deep.equal([[1n]]);
      expect(await readSplits(memory, [split], ['id'])).to.deep.equal([[1n]]);
    });
  });
});
