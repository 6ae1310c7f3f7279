// JSON of plans and syntax trees nested deeper than JSON.stringify's replacer (or JSON.parse's
// reviver) can recurse: the loop that takes over writes exactly what JSON.stringify would.

import { expect } from 'chai';
import { parseDeep, stringifyDeep } from '../../src/sql/planner/deep-json.js';
import { fromTaggedJson, toTaggedJson } from '../../src/sql/planner/plan-json.js';

/** `value` inside `depth` arrays. */
function wrapped(value: unknown, depth: number): unknown {
  let result = value;
  for (let i = 0; i < depth; i++) result = [result];
  return result;
}

describe('deep JSON', () => {
  const samples: unknown[] = [
    {
      a: 1,
      b: [1, 'x', null, undefined, () => 1, true, -0, NaN, Infinity],
      c: undefined,
      d: { e: { f: [] } },
      g: 'q"\n\u2028',
      h: new Uint8Array([1, 2]),
    },
    [],
    {},
    'text',
    5,
    null,
    [undefined],
    { toJSON: () => ({ z: 1 }) },
    { b: 'not an array' },
  ];
  const replacer = (key: string, value: unknown) => (key === 'b' && Array.isArray(value) ? value.slice(0, 4) : value);

  it('writes what JSON.stringify writes, with and without a replacer, however deep', () => {
    for (const sample of samples) {
      for (const r of [undefined, replacer]) {
        const inner = JSON.stringify(sample, r) ?? 'null';
        expect(stringifyDeep(wrapped(sample, 20_000), r)).to.equal(`${'['.repeat(20_000)}${inner}${']'.repeat(20_000)}`);
      }
    }
  });

  it('revives bottom-up however deep, as JSON.parse with a reviver would', () => {
    const text = `${'{"a":['.repeat(50_000)}{"n":7}${']}'.repeat(50_000)}`;
    let value = parseDeep(text, (v) => (v !== null && typeof v === 'object' && 'n' in v ? (v as { n: number }).n * 2 : v));
    let depth = 0;
    while (typeof value === 'object' && value !== null) {
      value = (value as { a: unknown[] }).a[0];
      depth++;
    }
    expect([depth, value]).to.deep.equal([50_000, 14]);
  });

  it('round-trips tagged plan data 10,000 levels deep', () => {
    type Node = { kind: string; value?: unknown; args?: Node[] };
    let expression: Node = { kind: 'constant', value: 12345678901234567890n };
    for (let i = 0; i < 10_000; i++)
      expression = { kind: 'call', args: [expression, { kind: 'constant', value: new Uint8Array([i % 256]) }] };
    let node = fromTaggedJson(toTaggedJson(expression), 'test') as Node;
    const bytes: number[] = [];
    while (node.kind === 'call') {
      bytes.push((node.args![1].value as Uint8Array)[0]);
      node = node.args![0];
    }
    expect(node.value).to.equal(12345678901234567890n);
    expect(bytes).to.deep.equal(Array.from({ length: 10_000 }, (_, i) => (9_999 - i) % 256));
  });
});
