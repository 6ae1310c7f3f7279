// Runs a correlated subquery once per distinct binding of its outer symbols (the fallback when the
// planner could not decorrelate it into a join) and appends its result to every input row.

import { EngineError } from '../errors/engine-error.js';
import type { ApplyNode, ValueApplyNode } from '../sql/planner/plan.js';
import type { Bindings, LocalExecutionPlanner } from './local-execution-planner.js';
import { channelOf } from './local-execution-planner.js';
import type { PageStream } from './operators/operator.js';
import { ColumnBuilder, getScalar, type Page } from '../columnar/page.js';
import type { Scalar } from '../types/scalar.js';
import type { OperatorRecorder } from './stats/operator-recorder.js';

/** The outer bindings plus the correlation symbols' values in row `row`, and a key of those values (with `extra`). */
export type CorrelationBinder = (page: Page, row: number, extra?: Scalar) => { bindings: Bindings; key: string };

export function correlationBinder(node: ApplyNode, outerBindings: Bindings): CorrelationBinder {
  const correlationChannels = node.correlation.map((s) => channelOf(node.input.outputs, s));
  return (page, row, extra) => {
    const bindings = new Map(outerBindings);
    const keyParts: Scalar[] = [];
    node.correlation.forEach((symbol, i) => {
      const value = getScalar(page.columns[correlationChannels[i]], row);
      bindings.set(symbol.id, { value, type: symbol.type });
      keyParts.push(value);
    });
    const key = JSON.stringify([...keyParts, extra], (_, v) =>
      typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    );
    return { bindings, key };
  };
}

/** `stats`: this operator's, the consumer of its input and of every run of the subquery. */
export async function* applyOperator(
  planner: LocalExecutionPlanner,
  node: ValueApplyNode,
  outerBindings: Bindings,
  stats: OperatorRecorder,
): PageStream {
  const valueChannel = node.value ? channelOf(node.input.outputs, node.value) : undefined;
  const cache = new Map<string, Scalar>();
  const bind = correlationBinder(node, outerBindings);

  const evaluate = async (page: Page, row: number): Promise<Scalar> => {
    const probe = valueChannel === undefined ? undefined : getScalar(page.columns[valueChannel], row);
    const { bindings, key } = bind(page, row, probe);
    if (cache.has(key)) return cache.get(key)!;
    const result = await runSubquery(planner.plan(node.subquery, bindings, stats), node.applyType, probe);
    cache.set(key, result);
    return result;
  };

  for await (const page of planner.plan(node.input, outerBindings, stats)) {
    const builder = new ColumnBuilder(node.result.type, page.rowCount);
    for (let row = 0; row < page.rowCount; row++) builder.append(await evaluate(page, row));
    yield { rowCount: page.rowCount, columns: [...page.columns, builder.build()] };
  }
}

async function runSubquery(stream: PageStream, type: ValueApplyNode['applyType'], probe: Scalar | undefined): Promise<Scalar> {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    if (type === 'exists') {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) if (next.value.rowCount > 0) return true;
      return false;
    }
    if (type === 'scalar') {
      let result: Scalar = null;
      let rows = 0;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const page = next.value;
        if (page.rowCount === 0) continue;
        rows += page.rowCount;
        if (rows > 1) throw new EngineError('SUBQUERY_MULTIPLE_ROWS', 'Scalar sub-query has returned multiple rows');
        result = getScalar(page.columns[0], 0);
      }
      return result;
    }
    // IN: TRUE on a match; otherwise NULL if the probe or any value is NULL (and there are rows).
    let sawNull = false;
    let sawRows = false;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const column = next.value.columns[0];
      for (let i = 0; i < next.value.rowCount; i++) {
        sawRows = true;
        const value = getScalar(column, i);
        if (value === null) sawNull = true;
        else if (probe !== null && equalScalars(value, probe!)) return true;
      }
    }
    if (!sawRows) return false;
    return probe === null || sawNull ? null : false;
  } finally {
    await iterator.return?.();
  }
}

function equalScalars(a: Scalar, b: Scalar): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return a === b;
}
