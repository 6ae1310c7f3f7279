// Pattern matching engines compared: V8's backtracking RegExp, RE2JS (the engine of the regexp
// functions) and re2-wasm (RE2 compiled to WebAssembly; measured only when installed, e.g.
// `npm install --no-save re2-wasm`), plus our LIKE matcher against LIKE translated to a RegExp.
// (a) catastrophic patterns at growing lengths, (b) ordinary patterns on TPC-H comment text.
// Prints figures, never fails.
//
//   node engine/dist/scripts/bench/regex-engines.js [--evaluations 1000000]

import { parseArgs } from 'node:util';
import { RE2JS } from 're2js';
import { textPool } from '../../src/connectors/tpch/text-pool.js';
import { compileLikePattern } from '../../src/exec/expression/like-pattern.js';

type Matcher = (text: string) => boolean;
interface Engine {
  name: string;
  compile: (pattern: string) => Matcher;
}

interface Re2WasmModule {
  RE2: new (pattern: string, flags: string) => { test(text: string): boolean };
}

async function engines(): Promise<Engine[]> {
  const list: Engine[] = [
    {
      name: 'V8 RegExp',
      compile: (p) =>
        (
          (re) => (t: string) =>
            re.test(t)
        )(new RegExp(p, 'u')),
    },
    {
      name: 're2js test()',
      compile: (p) =>
        (
          (re) => (t: string) =>
            re.test(t)
        )(RE2JS.compile(p)),
    },
    {
      name: 're2js matcher().find()',
      compile: (p) =>
        (
          (re) => (t: string) =>
            re.matcher(t).find()
        )(RE2JS.compile(p)),
    },
  ];
  const wasmName = 're2-wasm';
  try {
    const { RE2 } = (await import(wasmName)) as Re2WasmModule;
    list.push({
      name: 're2-wasm test()',
      compile: (p) =>
        (
          (re) => (t: string) =>
            re.test(t)
        )(new RE2(p, 'u')),
    });
  } catch {
    console.log('(re2-wasm not installed: `npm install --no-save re2-wasm` to include it)\n');
  }
  return list;
}

/** LIKE as the engine compiled it before: an anchored backtracking RegExp. */
function likeAsRegExp(pattern: string): Matcher {
  const source = [...pattern].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
  const re = new RegExp(`^${source}$`, 'su');
  return (t) => re.test(t);
}

function millis(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const format = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)).padStart(9) + ' ms';

function row(label: string, cells: string[]): void {
  console.log(`${label.padEnd(34)}${cells.join('')}`);
}

/** Catastrophic inputs: backtracking engines only at lengths they survive (their time doubles per character). */
function catastrophic(list: Engine[]): void {
  const lengths = [20, 24, 30, 10_000, 100_000];
  const backtrackingLimit = 24;
  console.log("(a) regexp_like('a' x n || 'b', '(a+)+$')");
  row(
    'engine \\ n',
    lengths.map((n) => String(n).padStart(12)),
  );
  for (const engine of list) {
    const matches = engine.compile('(a+)+$');
    const cells = lengths.map((n) =>
      engine.name.startsWith('V8') && n > backtrackingLimit ? 'skipped'.padStart(12) : format(millis(() => matches(`${'a'.repeat(n)}b`))),
    );
    row(engine.name, cells);
  }
  console.log("\n(a) 'a' x n LIKE '%a%a%a%b'");
  const likeLengths = [100, 200, 400, 1000, 10_000, 100_000];
  const likes: Array<[string, (p: string) => Matcher, number]> = [
    ['LIKE as RegExp (before)', likeAsRegExp, 400],
    ['LIKE segments (now)', (p) => compileLikePattern(p), Infinity],
  ];
  row(
    'matcher \\ n',
    likeLengths.map((n) => String(n).padStart(12)),
  );
  for (const [name, compile, limit] of likes) {
    const matches = compile('%a%a%a%b');
    row(
      name,
      likeLengths.map((n) => (n > limit ? 'skipped'.padStart(12) : format(millis(() => matches('a'.repeat(n)))))),
    );
  }
}

/** TPC-H comment-like texts: substrings of the TPC-H text pool, 19 to 78 characters (o_comment's range). */
function comments(count: number): string[] {
  const pool = textPool();
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const length = 19 + next(60);
    return pool.slice(next(pool.size - length), length);
  });
}

function ordinary(list: Engine[], evaluations: number): void {
  const texts = comments(10_000);
  const patterns = ['special.*requests', '^[a-z]+ [a-z]+ ', '(quick|slyly|furious)[a-z]* (final|bold)', 'pinto beans$'];
  console.log(`\n(b) ${evaluations.toLocaleString('en-US')} evaluations on TPC-H comment text (ms; matches)`);
  row(
    'engine \\ pattern',
    patterns.map((p) => p.slice(0, 22).padStart(26)),
  );
  for (const engine of list) {
    const cells = patterns.map((pattern) => {
      const matches = engine.compile(pattern);
      let found = 0;
      const ms = millis(() => {
        for (let i = 0; i < evaluations; i++) if (matches(texts[i % texts.length])) found++;
      });
      return `${format(ms)} (${found})`.padStart(26);
    });
    row(engine.name, cells);
  }
  const likePattern = '%special%requests%';
  console.log(`LIKE '${likePattern}'`);
  for (const [name, matches] of [
    ['LIKE as RegExp (before)', likeAsRegExp(likePattern)],
    ['LIKE segments (now)', compileLikePattern(likePattern)],
  ] as const) {
    let found = 0;
    const ms = millis(() => {
      for (let i = 0; i < evaluations; i++) if (matches(texts[i % texts.length])) found++;
    });
    row(name, [`${format(ms)} (${found})`.padStart(26)]);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { evaluations: { type: 'string', default: '1000000' } } });
  const evaluations = Number(values.evaluations);
  if (!Number.isInteger(evaluations) || evaluations <= 0)
    throw new Error(`--evaluations must be a positive integer, got '${values.evaluations}'`);
  const list = await engines();
  catastrophic(list);
  ordinary(list, evaluations);
}

await main();
