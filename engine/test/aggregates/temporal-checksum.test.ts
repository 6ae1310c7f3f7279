// checksum of times and timestamps, as Trino's types hash them (XX_HASH_64): the instant 0 hashes as
// the long 0 in every precision that holds one long, so its checksum is Trino's checksum(0); a long
// timestamp's two parts XOR to 0 there; over a table, a timestamp(6) column sums as its epoch micros
// do as bigint, a zoned one as its epoch millis (whatever the zone), a time as its picoseconds, a
// time with time zone as its time at +00:00.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('checksum of times and timestamps', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const value = async (sql: string) => (await engine.rows(sql))[0][0];

  it('hashes the instant 0 as the long 0', async () => {
    const zero = '9D2D16796C5091EA'; // Trino's checksum(0)
    const row = await engine.rows(
      "SELECT to_hex(checksum(TIMESTAMP '1970-01-01 00:00:00')), to_hex(checksum(TIMESTAMP '1970-01-01 00:00:00.000000')), to_hex(checksum(TIME '00:00:00')), to_hex(checksum(TIME '00:00:00.000000000')), to_hex(checksum(TIMESTAMP '1970-01-01 05:30:00 Asia/Kolkata')), to_hex(checksum(TIMESTAMP '1970-01-01 00:00:00.000000000')), to_hex(checksum(TIMESTAMP '1970-01-01 00:00:00.000000 UTC'))",
    );
    expect(row).to.deep.equal([[zero, zero, zero, zero, zero, '0000000000000000', '0000000000000000']]);
    // A time with time zone hashes its time at +00:00: nanoseconds up to precision 9, picoseconds above.
    const times = await engine.rows(
      "SELECT to_hex(checksum(TIME '05:30:00+05:30')), checksum(TIME '00:00:00.000000001+00:00') = checksum(1), checksum(TIME '23:00:00.000000000001-01:00') = checksum(1)",
    );
    expect(times).to.deep.equal([[zero, true, true]]);
  });

  it('sums a column as the long each value hashes as', async () => {
    const micros = "CAST(date_diff('millisecond', TIMESTAMP '1970-01-01 00:00:00', CAST(o_orderdate AS timestamp(3))) * 1000 AS bigint)";
    expect(await value(`SELECT checksum(CAST(o_orderdate AS timestamp(6))) = checksum(${micros}) FROM tpch.tiny.orders`)).to.equal(true);
    const zoned =
      "at_timezone(CAST(o_orderdate AS timestamp(3) with time zone), CASE o_orderkey % 3 WHEN 0 THEN 'UTC' WHEN 1 THEN 'Asia/Tokyo' ELSE '-08:00' END)";
    expect(
      await value(
        `SELECT checksum(${zoned}) = checksum(date_diff('millisecond', TIMESTAMP '1970-01-01 00:00:00 UTC', ${zoned})) FROM tpch.tiny.orders`,
      ),
    ).to.equal(true);
    const time = "CAST(date_add('second', o_orderkey % 86400, TIMESTAMP '2020-01-01 00:00:00') AS time(9))";
    expect(
      await value(
        `SELECT checksum(${time}) = checksum(date_diff('millisecond', TIME '00:00:00', ${time}) * 1000000000) FROM tpch.tiny.orders`,
      ),
    ).to.equal(true);
  });
});
