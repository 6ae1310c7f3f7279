// A structural key of a RowExpression: equal keys mean the same computation (same tree, types and
// constants), so compiled code can be shared.

import type { Scalar } from '../../types/scalar.js';
import { MapValue } from '../../types/map-value.js';
import type { RowExpression } from './row-expression.js';
import { typeName } from '../../types/types.js';
import { routineKey } from '../routines/routine.js';

function scalarKey(value: Scalar): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return `${value}n`;
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean':
      return String(value);
    default:
      if (value instanceof MapValue) return `map(${scalarKey(value.keys)},${scalarKey(value.values)})`;
      return Array.isArray(value)
        ? `[${(value as readonly Scalar[]).map(scalarKey).join(',')}]`
        : `x'${Buffer.from(value as Uint8Array).toString('hex')}'`;
  }
}

export function expressionKey(e: RowExpression): string {
  switch (e.kind) {
    case 'input':
      return `#${e.channel}:${typeName(e.type)}`;
    case 'constant':
      return `${scalarKey(e.value)}:${typeName(e.type)}`;
    case 'call':
      return `${e.name}:${typeName(e.type)}(${e.args.map(expressionKey).join(',')})`;
    case 'cast':
      return `${e.safe ? 'try_cast' : e.assignment ? 'assignment_cast' : 'cast'}:${typeName(e.type)}${e.sessionZone === undefined ? '' : `@${e.sessionZone}`}(${expressionKey(e.arg)})`;
    case 'special':
      return `${e.form}:${typeName(e.type)}(${e.args.map(expressionKey).join(',')})`;
    case 'symbol':
      return `$${e.symbol.id}`;
    case 'lambda':
      return `(${e.parameters.map((p) => `${JSON.stringify(p.name)}:${typeName(p.type)}`).join(',')})->${expressionKey(e.body)}`;
    case 'variable':
      return `@${JSON.stringify(e.name)}:${typeName(e.type)}`;
    case 'routine':
      return `routine ${routineKey(e.routine)}(${e.args.map(expressionKey).join(',')})`;
  }
}

/** The input channels an expression reads. */
export function inputChannels(e: RowExpression, into: Set<number> = new Set()): Set<number> {
  if (e.kind === 'input') into.add(e.channel);
  else if (e.kind === 'call' || e.kind === 'special' || e.kind === 'routine') for (const a of e.args) inputChannels(a, into);
  else if (e.kind === 'cast') inputChannels(e.arg, into);
  else if (e.kind === 'lambda') inputChannels(e.body, into);
  return into;
}
