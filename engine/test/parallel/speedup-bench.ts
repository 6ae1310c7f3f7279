// Measures what worker threads buy: CPU-heavy queries over a 4M-row memory table, in the main
// thread only (parallel_min_splits=0) and on worker threads (the default). Prints medians and
// speedups; not a test (figures depend on the machine and its load).
//
//   node engine/dist/test/parallel/speedup-bench.js [rounds]

import { availableParallelism } from 'node:os';
import { EngineHarness } from '../support/engine-harness.js';
import { IN_MAIN_THREAD, rowsWith, sortedRows } from './parallel-helpers.js';

const QUERIES = [
  'SELECT g, count(*), sum(ln(id + 1) * sqrt(id)), max(id % 97) FROM facts WHERE sin(id) > -0.5 GROUP BY g',
  'SELECT k, count(*), sum(price), avg(price), min(k), count_if(id % 7 = 0) FROM facts WHERE id % 5 <> 0 GROUP BY k',
  "SELECT count(*), sum(id) FROM facts WHERE k LIKE '%3%' AND price * 2 > 1.00",
];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(h: EngineHarness, sql: string, properties: Record<string, string>): Promise<{ millis: number; rows: unknown[][] }> {
  const started = performance.now();
  const rows = await rowsWith(h, sql, properties);
  return { millis: performance.now() - started, rows };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  const h = new EngineHarness({ memoryLimitBytes: 8 * 2 ** 30 });
  let started = performance.now();
  await h.run(
    'CREATE TABLE digits AS SELECT * FROM (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) t(x)',
    `CREATE TABLE facts AS
     SELECT a.x * 1000000 + b.x * 100000 + c.x * 10000 + d.x * 1000 + e.x * 100 + f.x * 10 + g.x AS id,
            CAST(b.x AS varchar) || '-' || CAST(c.x AS varchar) AS k,
            CAST(d.x AS decimal(12,2)) / 4 AS price,
            g.x % 4 AS g
     FROM digits a, digits b, digits c, digits d, digits e, digits f, (SELECT x FROM digits WHERE x < 4) g`,
  );
  const count = (await h.rows('SELECT count(*) FROM facts'))[0][0];
  console.log(`facts: ${String(count)} rows, built in ${Math.round(performance.now() - started)} ms; ${availableParallelism()} cores`);
  started = performance.now();
  await timed(h, QUERIES[0], {});
  console.log(`first query on worker threads (starts them): ${Math.round(performance.now() - started)} ms`);
  for (const sql of QUERIES) {
    const single: number[] = [];
    const parallel: number[] = [];
    // Two rounds to warm each thread's compiled code up, then the measured ones.
    for (let round = -2; round < rounds; round++) {
      const a = await timed(h, sql, IN_MAIN_THREAD);
      const b = await timed(h, sql, {});
      if (round < 0) continue;
      if (JSON.stringify(sortedRows(a.rows as never), big) !== JSON.stringify(sortedRows(b.rows as never), big)) {
        console.log(
          `  results differ (floating-point sums add up in another order): ${JSON.stringify(sortedRows(a.rows as never)[0], big)} vs ${JSON.stringify(sortedRows(b.rows as never)[0], big)}`,
        );
      }
      single.push(a.millis);
      parallel.push(b.millis);
    }
    const s = median(single);
    const p = median(parallel);
    console.log(`${sql}\n  main thread ${s.toFixed(0)} ms, worker threads ${p.toFixed(0)} ms: speedup ${(s / p).toFixed(2)}x`);
  }
}

function big(_: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

await main();
