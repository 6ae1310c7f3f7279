// PostgreSQL's timestamp(6) holds int64 micros (years 4713 BC..294276): read through the engine at
// years 1..200000 it keeps every micro (9999-12-31 23:59:59.999999 came back as 10000-01-01), a
// filter pushed down as a literal finds its row, and what the engine writes reads back in
// PostgreSQL with the same digits. The oracle is PostgreSQL's own text of each value.

import { expect } from 'chai';
import { withPgFixture } from './pg-fixture.js';

const MICROS = [
  '0001-01-01 00:00:00.000001',
  '1000-02-28 23:59:59.999999',
  '1600-02-29 06:07:08.123456',
  '2300-01-01 00:00:00.000001',
  '9999-12-31 23:59:59.999999',
  '12345-06-07 08:09:10.111213',
  '200000-01-01 00:00:00.000001',
];
const MILLIS = [
  '0001-01-01 00:00:00.001',
  '1000-06-15 11:22:33.444',
  '1600-02-29 00:00:00.5',
  '2300-01-01 00:00:00.001',
  '9999-12-31 23:59:59.002',
  '9999-12-31 23:59:59.999',
  '140000-03-04 05:06:07.089',
];

/** PostgreSQL's text in Trino's form: all fraction digits of the precision, a '+' before a year past 9999. */
function trinoText(text: string, digits: number): string {
  const [date, time] = text.split(' ');
  const [whole, fraction = ''] = time.split('.');
  return `${/^\d{5,}-/.test(date) ? '+' : ''}${date} ${whole}.${fraction.padEnd(digits, '0')}`;
}

describe('PostgreSQL timestamps at every year', function () {
  this.timeout(120_000);
  const rows = MICROS.map((t, i) => `(${i}, TIMESTAMP '${t}', TIMESTAMP '${MILLIS[i]}')`).join(', ');
  const fixture = withPgFixture(`CREATE TABLE ts_range (i integer, t timestamp(6), m timestamp(3)); INSERT INTO ts_range VALUES ${rows}`);

  async function pgTexts(table: string): Promise<string[][]> {
    const rows = await fixture.server.sql<{ i: number; t: string; m: string }>(
      `SELECT i, t::text AS t, m::text AS m FROM ${table} ORDER BY i`,
    );
    return rows.map((r) => [String(r.i), trinoText(r.t, 6), trinoText(r.m, 3)]);
  }

  it('reads every micro and milli', async () => {
    const ours = await fixture.engine.rows(
      'SELECT CAST(i AS varchar), CAST(t AS varchar), CAST(m AS varchar) FROM pg.public.ts_range ORDER BY i',
    );
    expect(ours).to.deep.equal(await pgTexts('ts_range'));
  });

  it('finds a row by a literal next to the end of time (pushed down as PostgreSQL text)', async () => {
    const found = (where: string) =>
      fixture.engine.rows(`SELECT i, CAST(t AS varchar), CAST(m AS varchar) FROM pg.public.ts_range WHERE ${where}`);
    const row4 = [4, '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59.002'];
    expect(await found("t = TIMESTAMP '9999-12-31 23:59:59.999999'")).to.deep.equal([row4]);
    expect(await found("t > TIMESTAMP '2300-01-01 00:00:00.000000' AND t < TIMESTAMP '2300-01-01 00:00:00.000002'")).to.deep.equal([
      [3, '2300-01-01 00:00:00.000001', '2300-01-01 00:00:00.001'],
    ]);
    expect(await found("m = TIMESTAMP '9999-12-31 23:59:59.002'")).to.deep.equal([row4]);
  });

  it('writes values that PostgreSQL reads with the same digits', async () => {
    await fixture.engine.query('CREATE TABLE pg.public.ts_copy AS SELECT i, t, m FROM pg.public.ts_range');
    expect(await pgTexts('ts_copy')).to.deep.equal(await pgTexts('ts_range'));
  });
});
