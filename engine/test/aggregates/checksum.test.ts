// checksum(x): Trino's value for checksum(0) (AbstractTestEngineOnlyQueries), a NULL row counting
// PRIME64, NULL over no rows, the same checksum in any row order, the checksum of a union being the
// 64-bit sum of its parts' (Trino's definition), the same over a table aggregated on worker threads
// in parts, and a clear refusal of types it does not hash.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const asLong = (bytes: unknown) => Buffer.from(bytes as Uint8Array).readBigInt64LE(0);

describe('checksum', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const value = async (sql: string) => (await engine.rows(sql))[0][0];

  it("gives Trino's checksum of 0, PRIME64 for a NULL row and NULL for no rows", async () => {
    expect(await value('SELECT to_hex(checksum(0))')).to.equal('9D2D16796C5091EA');
    expect(await value('SELECT to_hex(checksum(NULL))')).to.equal('87CAEB85B179379E');
    expect(await value('SELECT checksum(x) FROM (VALUES 1) t(x) WHERE x > 5')).to.equal(null);
  });

  it('is order-insensitive and adds up over parts, for every type it hashes', async () => {
    const columns = [
      'o_orderkey',
      'o_shippriority',
      'o_totalprice',
      'o_totalprice * 1000000000000',
      'CAST(o_totalprice AS double)',
      'CAST(o_totalprice AS real)',
      'o_comment',
      'o_orderdate',
      "o_orderstatus = 'F'",
      'to_utf8(o_orderpriority)',
      'CAST(o_clerk AS char(20))',
    ];
    for (const column of columns) {
      const whole = await value(`SELECT checksum(${column}) FROM tpch.tiny.orders`);
      const reordered = await value(
        `SELECT checksum(v) FROM (SELECT ${column} AS v FROM tpch.tiny.orders ORDER BY o_comment DESC LIMIT 100000)`,
      );
      expect(asLong(reordered), column).to.equal(asLong(whole));
      const parts = await engine.rows(`SELECT checksum(${column}) FROM tpch.tiny.orders GROUP BY o_orderstatus`);
      expect(
        BigInt.asIntN(
          64,
          parts.reduce((sum, [p]) => sum + asLong(p), 0n),
        ),
        column,
      ).to.equal(asLong(whole));
    }
  });

  it('merges the partial checksums of worker threads into the same value', async () => {
    await engine.run(
      'CREATE TABLE many_splits AS SELECT a.x * 1000 + b.x AS x FROM UNNEST(sequence(1, 1000)) a(x) CROSS JOIN UNNEST(sequence(1, 300)) b(x)',
    );
    const [[plan]] = await engine.rows('EXPLAIN SELECT checksum(x) FROM many_splits');
    expect(plan).to.contain('Aggregate(PARTIAL)');
    const split = await value('SELECT checksum(x) FROM many_splits');
    const single = await value('SELECT checksum(x) FROM (SELECT x FROM many_splits ORDER BY x DESC LIMIT 1000000)');
    expect(asLong(split)).to.equal(asLong(single));
  });

  it('refuses types it does not hash, naming them', async () => {
    const e = await engine.failure('SELECT checksum(h) FROM (SELECT approx_set(x) AS h FROM (VALUES 1) t(x))');
    expect([e.errorName, e.rawMessage]).to.deep.equal(['NOT_SUPPORTED', 'checksum of HyperLogLog values is not supported']);
  });
});
