// The summary the interactive shell prints after a query, as Trino's CLI does (its StatusPrinter):
//
// Query 20261123_101010_00003_abcde, FINISHED, 1 node
// Splits: 17 total, 17 done (100.00%)
// 0.52 [25 rows, 2.3KB] [48 rows/s, 4.4KB/s]

import type { StatementResponseJson } from '../server/statement-json.js';

/** The summary between blank lines, or '' when the query ran no splits (SET SESSION, USE...). */
export function renderFinalSummary(response: StatementResponseJson): string {
  const s = response.stats;
  if (s.nodes === 0 || s.totalSplits === 0) return '';
  const seconds = s.elapsedTimeMillis / 1000;
  const percent = s.progressPercentage ?? (100 * s.completedSplits) / s.totalSplits;
  return [
    '',
    `Query ${response.id}, ${s.state}, ${grouped(s.nodes)} node${s.nodes === 1 ? '' : 's'}`,
    `Splits: ${grouped(s.totalSplits)} total, ${grouped(s.completedSplits)} done (${percent.toFixed(2)}%)`,
    `${elapsed(seconds)} [${count(s.processedRows)} rows, ${dataSize(s.processedBytes)}] [${count(rate(s.processedRows, seconds))} rows/s, ${dataSize(Math.round(rate(s.processedBytes, seconds)))}/s]`,
    '',
    '',
  ].join('\n');
}

function grouped(n: number): string {
  return n.toLocaleString('en-US');
}

function rate(amount: number, seconds: number): number {
  const r = amount / seconds;
  return Number.isFinite(r) ? r : 0;
}

/** Under a minute: seconds with two decimals (0.52); longer: m:ss. */
function elapsed(seconds: number): string {
  if (seconds < 60) return seconds.toFixed(2);
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** 25, 48.3K, 1.2M: three significant digits, units of 1000 above 1000. */
function count(n: number): string {
  return scaled(Math.trunc(n), ['', 'K', 'M', 'B', 'T', 'Q'], (v) => v > 1000);
}

/** 512B, 2.3KB, 41.1MB: units of 1000 from 1000 bytes. */
function dataSize(bytes: number): string {
  const text = scaled(bytes, ['', 'K', 'M', 'G', 'T', 'P'], (v) => v >= 1000);
  return `${text}B`;
}

function scaled(value: number, units: readonly string[], nextUnit: (v: number) => boolean): string {
  let v = value;
  let unit = 0;
  while (unit < units.length - 1 && nextUnit(v)) {
    v /= 1000;
    unit++;
  }
  return `${significant(v)}${units[unit]}`;
}

/** Up to two decimals under 10, one under 100, none above; half up, trailing zeros dropped. */
function significant(v: number): string {
  const decimals = v < 10 ? 2 : v < 100 ? 1 : 0;
  const factor = 10 ** decimals;
  return String(Math.round(v * factor + Number.EPSILON * factor) / factor);
}
