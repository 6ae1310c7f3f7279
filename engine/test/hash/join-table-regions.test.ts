// A join's lookup table filled region by region (by the node's worker threads, or here in turn)
// finds, for every probe key, the build rows a Map of the keys finds, in build order, as the table
// built in one thread does: integer keys (bigint, integer) and several keys of other types (double,
// short decimal, date), with duplicates, NULL keys (never matched, listed apart) and probe keys
// absent from the build side; clustered keys get a table as small as the one thread's. A region given more keys than it has slots reports it, and the fill
// on the threads then leaves the table to the main thread.

import { expect } from 'chai';
import { columnFromScalars, type Column } from '../../src/columnar/page.js';
import { IntegerJoinHash, wordsHash } from '../../src/exec/hash/integer-join-hash.js';
import { JoinHash } from '../../src/exec/hash/join-hash.js';
import { nullKeyRowsOf, type JoinLookup } from '../../src/exec/hash/join-lookup.js';
import { regionOf } from '../../src/exec/hash/table-regions.js';
import { fillJoinTableOnThreads } from '../../src/exec/threads/parallel-join-build.js';
import { ThreadPool } from '../../src/exec/threads/thread-pool.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, DATE, DOUBLE, INTEGER, decimal, type SqlType } from '../../src/types/types.js';

const ROWS = 40_000;

/** Each probe row's matching build rows, following the table's chains. */
function matches(lookup: JoinLookup, probe: Column[], count: number): number[][] {
  const first = new Int32Array(count);
  lookup.lookup(probe, count, first);
  return Array.from(first, (head) => {
    const rows: number[] = [];
    for (let row = head; row !== -1; row = lookup.next[row]) rows.push(row);
    return rows;
  });
}

/** The oracle: each probe row's build rows with an equal key (no NULL matches), in build order, through a Map. */
function mapMatches(build: Scalar[][], probe: Scalar[][]): number[][] {
  const text = (key: Scalar[]) => (key.includes(null) ? undefined : key.map(String).join('|'));
  const byKey = new Map<string, number[]>();
  build.forEach((key, row) => {
    const k = text(key);
    if (k !== undefined) byKey.set(k, [...(byKey.get(k) ?? []), row]);
  });
  return probe.map((key) => {
    const k = text(key);
    return k === undefined ? [] : (byKey.get(k) ?? []);
  });
}

function columns(types: SqlType[], rows: Scalar[][]): Column[] {
  return types.map((t, c) =>
    columnFromScalars(
      t,
      rows.map((r) => r[c]),
    ),
  );
}

/** Build keys with duplicates and NULLs, and probe keys some of which the build side lacks. */
function keyRows(make: (i: number) => Scalar[], count: number): Scalar[][] {
  return Array.from({ length: count }, (_, i) => make(i));
}

const CASES: { name: string; types: SqlType[]; key: (i: number) => Scalar[] }[] = [
  { name: 'one bigint key', types: [BIGINT], key: (i) => [i % 11 === 0 ? null : BigInt((i * 7919) % 15_013) - 7000n] },
  { name: 'one integer key', types: [INTEGER], key: (i) => [i % 13 === 0 ? null : (i * 31) % 9973] },
  {
    name: 'double, short decimal and date keys',
    types: [DOUBLE, decimal(12, 2), DATE],
    key: (i) => [i % 17 === 0 ? null : (i % 97) / 8, BigInt(i % 5) * 125n, i % 19 === 0 ? null : 18_000 + (i % 3)],
  },
];

describe('join tables filled region by region', function () {
  this.timeout(120_000);
  const pool = new ThreadPool(2);
  after(() => pool.shutdown());

  for (const { name, types, key } of CASES) {
    const build = keyRows(key, ROWS);
    const probe = keyRows((i) => key(i * 3 + 1), ROWS / 2);
    const buildKeys = columns(types, build);
    const probeKeys = columns(types, probe);
    const expected = mapMatches(build, probe);
    const integer = types.length === 1;

    it(`${name}: built in one thread, the Map's matches`, async () => {
      const table = integer ? await IntegerJoinHash.build(buildKeys[0], ROWS) : await JoinHash.build(types, buildKeys, ROWS);
      expect(matches(table, probeKeys, probe.length)).to.deep.equal(expected);
    });

    it(`${name}: filled in four regions in turn, the same matches and NULL rows`, () => {
      let table: IntegerJoinHash | JoinHash;
      if (integer) {
        const t = IntegerJoinHash.empty(buildKeys[0], ROWS, 2, false);
        const hashes = new Int32Array(ROWS);
        IntegerJoinHash.hashRange(buildKeys[0], hashes, 0, ROWS / 2);
        IntegerJoinHash.hashRange(buildKeys[0], hashes, ROWS / 2, ROWS);
        for (let region = 0; region < 4; region++) expect(t.insertRegion(buildKeys[0], hashes, region)).to.equal(true);
        table = t;
      } else {
        const t = JoinHash.empty(types, buildKeys, ROWS, 2, false);
        t.hashRange(0, ROWS / 2);
        t.hashRange(ROWS / 2, ROWS);
        for (let region = 0; region < 4; region++) expect(t.insertRegion(region)).to.equal(true);
        table = t;
      }
      table.nullKeyRows = nullKeyRowsOf(buildKeys, ROWS);
      expect(matches(table, probeKeys, probe.length)).to.deep.equal(expected);
      const nullRows = build.flatMap((k, row) => (k.includes(null) ? [row] : []));
      expect([...table.nullKeyRows]).to.deep.equal(nullRows);
    });

    it(`${name}: filled by worker threads, the same matches, and shared with them`, async () => {
      const filled = await fillJoinTableOnThreads(pool, types, buildKeys, ROWS, 2);
      expect(filled).not.to.equal(undefined);
      expect(filled!.lookup.share().regionBits).to.equal(1);
      expect(matches(filled!.lookup, probeKeys, probe.length)).to.deep.equal(expected);
      expect(filled!.cpuMillis).to.be.greaterThan(0);
    });
  }

  it('a region given more keys than its slots says so, and the threads leave the table to the main thread', async () => {
    // 200 distinct keys that all fall in region 0 of a table of 512 slots in four regions (128 slots each).
    const keys: bigint[] = [];
    for (let k = 0n; keys.length < 200; k++) if (regionOf(wordsHash(Number(k), 0), 2) === 0) keys.push(k);
    const column = columnFromScalars(BIGINT, keys);
    const table = IntegerJoinHash.empty(column, keys.length, 2, false);
    const hashes = new Int32Array(keys.length);
    IntegerJoinHash.hashRange(column, hashes, 0, keys.length);
    expect(table.insertRegion(column, hashes, 0)).to.equal(false);
    expect(await fillJoinTableOnThreads(pool, [BIGINT], [column], keys.length, 4)).to.equal(undefined);
  });

  it('clustered integer keys (four rows a key, as lineitem by order): the threads fill a table as small as one thread builds', async () => {
    const build = keyRows((i) => [BigInt(Math.floor(i / 4))], ROWS);
    const probe = keyRows((i) => [BigInt(i % (ROWS / 2))], ROWS);
    const [buildKey] = columns([BIGINT], build);
    const probeKeys = columns([BIGINT], probe);
    const single = await IntegerJoinHash.build(buildKey, ROWS);
    const filled = await fillJoinTableOnThreads(pool, [BIGINT], [buildKey], ROWS, 2);
    expect(filled!.lookup.sizeInBytes()).to.equal(single.sizeInBytes());
    expect(matches(filled!.lookup, probeKeys, ROWS)).to.deep.equal(mapMatches(build, probe));
  });
});
