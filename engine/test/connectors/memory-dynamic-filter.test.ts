// A memory table scan drops the rows a join's dynamic filter rules out, as the lake's reader does:
// in this thread (createPageSource, a split read here after all) and in a worker thread (the
// memory split reader). Keys it does not test (strings) pass, and a filter with no values drops all.

import { expect } from 'chai';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { openWorkerSplit } from '../../src/exec/threads/split-readers.js';
import { allSplits, type TableConstraint, type TableMetadata } from '../../src/spi/connector.js';
import { columnFromScalars, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, INTEGER, varchar, type SqlType } from '../../src/types/types.js';
import { pageRows, testSession } from './helpers.js';

const session = testSession();
const COLUMNS: [string, SqlType][] = [
  ['id', BIGINT],
  ['n', INTEGER],
  ['s', varchar(5)],
];
const TABLE: TableMetadata = { catalog: 'memory', schema: 'default', name: 't', columns: COLUMNS.map(([name, type]) => ({ name, type })) };
const ROWS: Scalar[][] = [
  [1n, 10, 'a'],
  [2n, 20, 'b'],
  [3n, null, 'c'],
  [4n, 40, 'd'],
];

async function table(): Promise<MemoryConnector> {
  const memory = new MemoryConnector();
  await memory.createTable(session, TABLE);
  const page: Page = {
    rowCount: ROWS.length,
    columns: COLUMNS.map(([, type], i) =>
      columnFromScalars(
        type,
        ROWS.map((r) => r[i]),
      ),
    ),
  };
  await memory.insert(session, 'default', 't', [page]);
  return memory;
}

async function rowsOf(pages: AsyncIterable<Page>): Promise<Scalar[][]> {
  const rows: Scalar[][] = [];
  for await (const page of pages) rows.push(...pageRows(page));
  return rows;
}

/** The rows a scan of `columns` reads with the filter: through createPageSource, a worker's reader and a prepared split's local read. */
async function scans(columns: string[], filter: TableConstraint): Promise<Scalar[][][]> {
  const memory = await table();
  const [split] = await allSplits(memory.getSplits(session, TABLE));
  const here = await rowsOf(memory.createPageSource(session, split, columns, undefined, filter));
  const prepared = memory.workerSplitSource().prepare(split, columns, session);
  const worker = await rowsOf(openWorkerSplit(prepared.worker, columns, session, filter));
  const local = await rowsOf(prepared.local(filter));
  return [here, worker, local];
}

describe('memory connector: dynamic filters', () => {
  it('drops the rows whose bigint key the build does not hold, in every way a split is read', async () => {
    const filter = [{ column: 'id', low: { value: 2n, inclusive: true }, high: { value: 4n, inclusive: true }, values: [4n, 2n] }];
    for (const rows of await scans(['s', 'id'], filter))
      expect(rows).to.deep.equal([
        ['b', 2n],
        ['d', 4n],
      ]);
  });

  it('tests integer keys against a range and leaves out NULL keys', async () => {
    const filter = [{ column: 'n', low: { value: 15, inclusive: false }, high: { value: 40, inclusive: true } }];
    for (const rows of await scans(['id', 'n'], filter))
      expect(rows).to.deep.equal([
        [2n, 20],
        [4n, 40],
      ]);
  });

  it('passes every row on a key it does not test (a string) or a column it does not read', async () => {
    const filter = [
      { column: 's', values: ['a'] as Scalar[] },
      { column: 'n', values: [10] as Scalar[] },
    ];
    for (const rows of await scans(['id', 's'], filter)) expect(rows.map((r) => r[0])).to.deep.equal([1n, 2n, 3n, 4n]);
  });

  it('reads an empty table under a filter (a split without batches)', async () => {
    const memory = new MemoryConnector();
    await memory.createTable(session, TABLE);
    const [split] = await allSplits(memory.getSplits(session, TABLE));
    const filter = [{ column: 'id', values: [1n] as Scalar[] }];
    expect(await rowsOf(memory.createPageSource(session, split, ['id'], undefined, filter))).to.deep.equal([]);
    const prepared = memory.workerSplitSource().prepare(split, ['id'], session);
    expect(await rowsOf(openWorkerSplit(prepared.worker, ['id'], session, filter))).to.deep.equal([]);
  });

  it('reads nothing under the filter of an empty build', async () => {
    for (const rows of await scans(['id'], [{ column: 'id', values: [] }])) expect(rows).to.deep.equal([]);
  });
});
