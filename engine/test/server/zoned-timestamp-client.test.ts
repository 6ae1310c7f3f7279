// timestamp with time zone through the client protocol as Trino sends it: the column's type
// `timestamp(p) with time zone` with a LONG precision argument, values as
// '2012-10-30 18:00:00.000 America/Los_Angeles', and the session zone from X-Trino-Time-Zone
// (current_timestamp, AT LOCAL, from_unixtime). trino-client decodes them as it decodes Trino's.

import { expect } from 'chai';
import { Trino } from 'trino-client';
import { ServerProcess } from '../support/server-process.js';

describe('timestamp with time zone through trino-client', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  async function collect(sql: string, timeZone: string) {
    const trino = Trino.create({
      server: server.uri,
      catalog: 'memory',
      schema: 'default',
      extraHeaders: { 'X-Trino-Time-Zone': timeZone },
    });
    const results = [];
    for await (const result of await trino.query(sql)) results.push(result);
    const error = results.find((r) => r.error)?.error;
    if (error) throw new Error(error.message);
    return { columns: results.find((r) => r.columns)?.columns ?? [], rows: results.flatMap((r) => r.data ?? []) };
  }

  it('sends the type with its precision and the values with their zones, in the session zone where Trino reads it', async () => {
    const { columns, rows } = await collect(
      "SELECT TIMESTAMP '2012-10-31 01:00:00.000 UTC' AT TIME ZONE 'America/Los_Angeles' AS t, TIMESTAMP '2012-10-31 01:00 UTC' AT LOCAL AS l, from_unixtime(0) AS u, TIMESTAMP '2001-08-22 03:04:05.321 -08:30' AS o, current_timezone() AS z",
      'Asia/Kolkata',
    );
    const zoned = (name: string, precision: number) => ({
      name,
      type: `timestamp(${precision}) with time zone`,
      typeSignature: { rawType: 'timestamp with time zone', arguments: [{ kind: 'LONG', value: precision }] },
    });
    expect(columns.slice(0, 4)).to.deep.equal([zoned('t', 3), zoned('l', 0), zoned('u', 3), zoned('o', 3)]);
    expect(rows).to.deep.equal([
      [
        '2012-10-30 18:00:00.000 America/Los_Angeles',
        '2012-10-31 06:30:00 Asia/Kolkata',
        '1970-01-01 05:30:00.000 Asia/Kolkata',
        '2001-08-22 03:04:05.321 -08:30',
        'Asia/Kolkata',
      ],
    ]);
  });

  it("sends precisions 4..12 (Trino's long zoned timestamps) with every fraction digit", async () => {
    const { columns, rows } = await collect(
      "SELECT TIMESTAMP '2020-05-11 11:15:05.123456789 UTC' AS n, CAST(TIMESTAMP '2020-05-11 11:15:05.123456789 UTC' AS timestamp(6) with time zone) AT TIME ZONE 'Asia/Kathmandu' AS m, TIMESTAMP '1969-12-31 23:59:59.999999999999 -08:30' AS p, typeof(current_timestamp(12)) AS c",
      'UTC',
    );
    const zoned = (name: string, p: number) => ({
      name,
      type: `timestamp(${p}) with time zone`,
      typeSignature: { rawType: 'timestamp with time zone', arguments: [{ kind: 'LONG', value: p }] },
    });
    expect(columns.slice(0, 3)).to.deep.equal([zoned('n', 9), zoned('m', 6), zoned('p', 12)]);
    expect(rows).to.deep.equal([
      [
        '2020-05-11 11:15:05.123456789 UTC',
        '2020-05-11 17:00:05.123457 Asia/Kathmandu',
        '1969-12-31 23:59:59.999999999999 -08:30',
        'timestamp(12) with time zone',
      ],
    ]);
  });

  it('sends time(p) with time zone as Trino does', async () => {
    const { columns, rows } = await collect(
      "SELECT TIME '12:00:00+09:00' AS a, TIME '23:59:59.123456789-05:30' AS b, current_time AS c",
      'Asia/Kathmandu',
    );
    const zonedTime = (name: string, p: number) => ({
      name,
      type: `time(${p}) with time zone`,
      typeSignature: { rawType: 'time with time zone', arguments: [{ kind: 'LONG', value: p }] },
    });
    expect(columns).to.deep.equal([zonedTime('a', 0), zonedTime('b', 9), zonedTime('c', 3)]);
    expect(rows[0].slice(0, 2)).to.deep.equal(['12:00:00+09:00', '23:59:59.123456789-05:30']);
    expect(rows[0][2]).to.match(/^\d\d:\d\d:\d\d\.\d{3}\+05:45$/);
  });

  it('answers current_timestamp in the session zone of the request', async () => {
    const { rows } = await collect('SELECT timezone(current_timestamp), current_timestamp = now()', 'Europe/Paris');
    expect(rows).to.deep.equal([['Europe/Paris', true]]);
  });

  it('stores zoned values in a memory table and reads them back with their zones', async () => {
    await collect(
      'CREATE TABLE memory.default.client_zoned (id bigint, t timestamp(3) with time zone, n timestamp(9) with time zone)',
      'UTC',
    );
    await collect(
      "INSERT INTO memory.default.client_zoned VALUES (1, TIMESTAMP '2024-02-29 23:59:59.999 Pacific/Chatham', TIMESTAMP '2024-02-29 23:59:59.999999999 Pacific/Chatham'), (2, NULL, NULL)",
      'UTC',
    );
    const { rows } = await collect('SELECT id, t, n FROM memory.default.client_zoned ORDER BY id', 'UTC');
    expect(rows).to.deep.equal([
      [1, '2024-02-29 23:59:59.999 Pacific/Chatham', '2024-02-29 23:59:59.999999999 Pacific/Chatham'],
      [2, null, null],
    ]);
  });
});
