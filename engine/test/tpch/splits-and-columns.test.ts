// Splits generate independently (jumping the random streams ahead), so any split boundaries give
// the same table; and a page source generates only the columns asked for, with the same values a
// full generation has.

import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import type { Split } from '../../src/spi/connector.js';
import { Scale } from '../../src/connectors/tpch/scale.js';
import { pageRanges, splitRanges } from '../../src/connectors/tpch/splits.js';
import { formatTblRows } from '../../src/connectors/tpch/tbl-format.js';
import { TPCH_TABLES, tpchTable } from '../../src/connectors/tpch/tables.js';
import type { Column, Page } from '../../src/columnar/page.js';
import { testSession } from '../connectors/helpers.js';
import { connector, readPages, readTable, referenceTbl, table } from './helpers.js';

const TINY = new Scale(0.01);

function splitsOf(name: string, targetRows: number): Split[] {
  const generated = tpchTable(name);
  if (generated === undefined) throw new Error(name);
  return [...splitRanges(generated, TINY, targetRows)].map((info) => ({ catalog: 'tpch', schema: 'tiny', table: name, info }));
}

function columnValues(column: Column): unknown[] {
  return Array.from(column.values as ArrayLike<unknown>);
}

describe('tpch: splits', () => {
  it('cuts a split into pages as they are read: a split of 10^11 orders gives its first pages at once', async () => {
    const lineitem = tpchTable('lineitem');
    if (lineitem === undefined) throw new Error('lineitem');
    // Before, the line counts of the whole split were drawn first (100 GB for this split).
    const pages = pageRanges(lineitem, new Scale(100_000), 0, 1e11);
    const first = pages.next().value as [number, number];
    const second = pages.next().value as [number, number];
    expect(first[0]).to.equal(0);
    expect(second[0]).to.equal(first[1]);
    expect(first[1]).to.be.within(1000, 8192);
  });

  for (const { name } of TPCH_TABLES) {
    it(`${name}: concatenated splits equal the whole table, for several split sizes`, async () => {
      const metadata = await table('tiny', name);
      const columns = metadata.columns.map((c) => c.name);
      const reference = referenceTbl(name);
      for (const targetRows of [1, 999, 4096, 20000]) {
        const splits = splitsOf(name, targetRows);
        if (targetRows === 1) expect(splits.length).to.equal(tpchTable(name)?.unitCount(TINY));
        const text = formatTblRows(await readTable(metadata, columns, splits), columns);
        expect(text === reference, `${name} in splits of ${targetRows} rows (${splits.length} splits)`).to.equal(true);
      }
    });
  }

  it('cover each table with contiguous unit ranges of about 64k rows', async () => {
    const session = testSession();
    const expectedCounts = { nation: 1, region: 1, part: 4, supplier: 1, partsupp: 13, customer: 3, orders: 23, lineitem: 92 };
    for (const [name, count] of Object.entries(expectedCounts)) {
      const splits = await allSplits(connector.getSplits(session, await table('sf1', name)));
      expect(splits, name).to.have.length(count);
      const ranges = splits.map((s) => s.info as { start: number; end: number });
      expect(ranges[0].start).to.equal(0);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i].start).to.equal(ranges[i - 1].end);
      for (const s of splits) expect(s).to.include({ catalog: 'tpch', schema: 'sf1', table: name });
      expect(JSON.parse(JSON.stringify(splits))).to.deep.equal(splits);
    }
  });

  it('generate a split in the middle of sf1 on its own, in pages of at most 8192 rows', async () => {
    const splits = await allSplits(connector.getSplits(testSession(), await table('sf1', 'lineitem')));
    const pages = await readPages([splits[50]], ['l_orderkey', 'l_linenumber', 'l_quantity']);
    const rows = pages.reduce((n, p) => n + p.rowCount, 0);
    expect(rows).to.be.within(16384, 16384 * 7);
    for (const page of pages) expect(page.rowCount).to.be.within(1, 8192);
    // Pages end at order boundaries but are filled: all but the last hold more than 8192 - 7 rows.
    for (const page of pages.slice(0, -1)) expect(page.rowCount).to.be.greaterThan(8192 - 7);
    const orderKeys = pages[0].columns[0].values as BigInt64Array;
    const firstOrder = 50 * 16384 + 1;
    expect(orderKeys[0]).to.equal(BigInt(Math.floor(firstOrder / 8) * 32 + (firstOrder % 8)));
    expect((pages[0].columns[1].values as Int32Array)[0]).to.equal(1);
  });

  it('of an empty range yield no pages', async () => {
    const split = { catalog: 'tpch', schema: 'tiny', table: 'orders', info: { start: 10, end: 10 } };
    expect(await readPages([split], ['o_orderkey'])).to.deep.equal([]);
  });
});

describe('tpch: column subsets', () => {
  for (const { name } of TPCH_TABLES) {
    it(`${name}: each column alone, and columns in any order, equal full generation`, async () => {
      const metadata = await table('tiny', name);
      const all = metadata.columns.map((c) => c.name);
      const full = await readTable(metadata);
      const fullValues = new Map(all.map((c, i) => [c, columnValues(full.columns[i])]));
      const check = (page: Page, columns: string[]) => {
        expect(page.rowCount).to.equal(full.rowCount);
        columns.forEach((c, i) => {
          expect(page.columns[i].type, c).to.deep.equal(metadata.columns[all.indexOf(c)].type);
          expect(page.columns[i].nulls, c).to.equal(null);
          expect(columnValues(page.columns[i]), `${name}.${c}`).to.deep.equal(fullValues.get(c));
        });
      };
      for (const c of all) check(await readTable(metadata, [c]), [c]);
      const reversed = [...all].reverse();
      check(await readTable(metadata, reversed), reversed);
      const everyOther = all.filter((_, i) => i % 2 === 1);
      check(await readTable(metadata, everyOther), everyOther);
      const twice = [all[all.length - 1], all[0], all[all.length - 1]];
      check(await readTable(metadata, twice), twice);
    });
  }

  it('with no columns still count the rows', async () => {
    const pages = await readPages(await allSplits(connector.getSplits(testSession(), await table('tiny', 'lineitem'))), []);
    expect(pages.reduce((n, p) => n + p.rowCount, 0)).to.equal(60175);
    for (const page of pages) expect(page.columns).to.deep.equal([]);
  });
});
