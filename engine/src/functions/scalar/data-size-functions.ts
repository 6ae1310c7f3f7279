// Human-readable quantities as Trino reads and writes them: format_number (123456 -> '123K') and
// parse_data_size ('2.3MB' -> 2411724, powers of 1024, the bytes truncated to a whole number).

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, DOUBLE, VARCHAR, decimal } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

const NUMBER_UNITS = ['K', 'M', 'B', 'T', 'Q'];

/** Up to three significant digits before the unit, halves rounded away from zero (Java's HALF_UP). */
export function formatNumber(count: number): string {
  let value = count;
  let unit = '';
  for (const next of NUMBER_UNITS) {
    if (value < 1000 && value > -1000) break;
    value /= 1000;
    unit = next;
  }
  // toFixed rounds the double's exact value, ties away from zero, as DecimalFormat's HALF_UP does.
  const decimals = value < 10 ? 2 : value < 100 ? 1 : 0;
  const text = value
    .toFixed(decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return text + unit;
}

const DATA_UNITS: Readonly<Record<string, bigint>> = {
  B: 1n,
  kB: 1n << 10n,
  MB: 1n << 20n,
  GB: 1n << 30n,
  TB: 1n << 40n,
  PB: 1n << 50n,
  EB: 1n << 60n,
  ZB: 1n << 70n,
  YB: 1n << 80n,
};
const MAX_DECIMAL_38 = 10n ** 38n - 1n;

export function parseDataSize(text: string): bigint {
  const invalid = () => new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid data size: '${text}'`);
  const match = /^[\d.]+/.exec(text);
  if (match === null) throw invalid();
  const number = match[0];
  if (!/^(?:\d+\.?\d*|\.\d+)$/.test(number)) throw invalid();
  const factor = DATA_UNITS[text.slice(number.length)];
  if (factor === undefined) throw invalid();
  const [whole, fraction = ''] = number.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const bytes = (BigInt((whole || '0') + fraction) * factor) / scale;
  if (bytes > MAX_DECIMAL_38) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Value out of range: '${text}' ('${bytes}B')`);
  return bytes;
}

export const DATA_SIZE_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['format_number'],
    description: 'Formats large number using a unit symbol',
    signatures: [
      { params: [BIGINT], returnType: VARCHAR, implement: () => body((n: bigint) => formatNumber(Number(n))) },
      { params: [DOUBLE], returnType: VARCHAR, implement: () => body((n: number) => formatNumber(Math.trunc(n))) },
    ],
  },
  {
    names: ['parse_data_size'],
    description: 'Converts data size string to bytes',
    signatures: [{ params: [{ family: 'varchar' }], returnType: decimal(38, 0), implement: () => body(parseDataSize) }],
  },
];
