// INTERVAL literals: year-month intervals count months, day-second intervals count milliseconds.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';

const MILLIS: Record<string, number> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };

export function intervalLiteralValue(e: ast.IntervalLiteral): number {
  const text = e.value.trim();
  const invalid = () => new EngineError('INVALID_LITERAL', `'${e.value}' is not a valid interval literal`, e.location);
  const negative = text.startsWith('-');
  const body = negative || text.startsWith('+') ? text.slice(1) : text;
  const sign = e.sign * (negative ? -1 : 1);
  const end = e.endField ?? e.startField;
  if (e.startField === 'YEAR' || e.startField === 'MONTH') {
    if (e.startField === 'YEAR' && end === 'MONTH') {
      const m = /^(\d+)-(\d+)$/.exec(body);
      if (!m) throw invalid();
      return sign * (Number(m[1]) * 12 + Number(m[2]));
    }
    if (end !== e.startField || !/^\d+$/.test(body)) throw invalid();
    return sign * Number(body) * (e.startField === 'YEAR' ? 12 : 1);
  }
  if (end === e.startField) {
    if (!/^\d+(\.\d+)?$/.test(body)) throw invalid();
    if (e.startField !== 'SECOND' && body.includes('.')) throw invalid();
    return sign * Math.round(Number(body) * MILLIS[e.startField]);
  }
  // DAY TO SECOND and friends: 'd hh:mm:ss.fff' with fields from startField to endField.
  const fields = body.split(/[ :]/);
  const units = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
  const from = units.indexOf(e.startField);
  const to = units.indexOf(end);
  if (from < 0 || to < from || fields.length !== to - from + 1) throw invalid();
  let total = 0;
  fields.forEach((f, i) => {
    if (!/^\d+(\.\d+)?$/.test(f)) throw invalid();
    total += Number(f) * MILLIS[units[from + i]];
  });
  return sign * Math.round(total);
}
