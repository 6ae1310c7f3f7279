// The tpch connector's column statistics against the distinct values DuckDB counts in the same
// rows (the connector's tables exported as .tbl files and loaded into DuckDB): exact for keys and
// fixed lists, close for uniformly drawn values (the expected count of distinct draws), within 2x
// for free texts (counted as distinct per row).

import type { DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'chai';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { TPCH_TABLES } from '../../src/connectors/tpch/tables.js';
import { distinctFromDraws, expectedDistinct } from '../../src/connectors/distinct-draws.js';
import { testSession } from '../connectors/helpers.js';
import { connector, table } from './helpers.js';

/** Free-text columns: names, addresses, phones, comments. */
const FREE_TEXT = /_(name|address|phone|comment)$/;

describe('tpch connector: column statistics against the distinct values DuckDB counts', function () {
  this.timeout(600_000);

  for (const schema of ['tiny', 'sf0.1']) {
    describe(schema, () => {
      let duck: DuckDBConnection;
      before(async () => {
        duck = await duckDbWithTpch(schema, 2);
      });
      after(() => duck.closeSync());

      for (const { name, columns } of TPCH_TABLES) {
        it(`${name}: every column's distinct count, and no NULLs`, async () => {
          const statistics = await connector.getTableStatistics(testSession(), await table(schema, name));
          const counts = columns.map((c) => `count(DISTINCT ${c.name}), count(*) - count(${c.name})`).join(', ');
          const [row] = await duckRows(duck, `SELECT ${counts} FROM ${name}`);
          columns.forEach(({ name: column }, i) => {
            const [distinct, nulls] = [Number(row[2 * i]), Number(row[2 * i + 1])];
            const figures = statistics?.columns?.[column];
            expect(figures?.nullsFraction, column).to.equal(nulls === 0 ? 0 : undefined);
            const estimate = figures?.distinctValuesCount ?? Number.NaN;
            const off = Math.max(estimate / distinct, distinct / estimate);
            expect(off, `${schema}.${name}.${column}: ${estimate}, DuckDB counts ${distinct}`).to.be.at.most(
              FREE_TEXT.test(column) ? 2 : 1.15,
            );
          });
        });
      }
    });
  }

  it('expects the distinct values of uniform draws, and infers the values from the draws', () => {
    expect(distinctFromDraws(632, 1000, 1e9)).to.be.closeTo(1000, 2);
    expect(distinctFromDraws(7, 1_000_000, 1e9)).to.equal(7);
    // Every draw distinct: any number of values beyond, up to the limit.
    expect(distinctFromDraws(1000, 1000, 5000)).to.equal(5000);
    expect(expectedDistinct(1_000_000, 7)).to.equal(7);
    expect(expectedDistinct(0, 7)).to.equal(0);
    expect(expectedDistinct(3, 1_000_000)).to.equal(3);
    expect(expectedDistinct(1000, 1000)).to.equal(632);
  });
});
