// dbgen's .tbl text layout: one row a line, every field followed by `|`; decimals with two digits
// after the point (except l_quantity, which dbgen writes as the whole number it is), dates as
// YYYY-MM-DD. Used to compare generated data with dbgen's files.

import type { Column, Page } from '../../columnar/page.js';
import { int64ToNumbers } from './column-values.js';

/** Decimal columns dbgen writes without a fraction. */
const WHOLE_NUMBER_COLUMNS = new Set(['l_quantity']);

/** The rows of `page` (whose columns are `columnNames`) as .tbl lines (each ending in "|\n"). */
export function formatTblRows(page: Page, columnNames: readonly string[]): string {
  const fields = page.columns.map((column, i) =>
    WHOLE_NUMBER_COLUMNS.has(columnNames[i]) ? formatWholeNumbers(column) : formatColumn(column),
  );
  const lines = new Array<string>(page.rowCount);
  for (let row = 0; row < page.rowCount; row++) {
    let line = '';
    for (let c = 0; c < fields.length; c++) line += fields[c][row] + '|';
    lines[row] = line;
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

function formatColumn(column: Column): string[] {
  const out = new Array<string>(column.length);
  switch (column.type.kind) {
    case 'varchar':
      return column.values as string[];
    case 'bigint': {
      const values = int64ToNumbers(column.values as BigInt64Array);
      for (let i = 0; i < out.length; i++) out[i] = String(values[i]);
      return out;
    }
    case 'integer': {
      const values = column.values as Int32Array;
      for (let i = 0; i < out.length; i++) out[i] = String(values[i]);
      return out;
    }
    case 'decimal': {
      if (column.type.scale !== 2) break;
      const values = int64ToNumbers(column.values as BigInt64Array);
      for (let i = 0; i < out.length; i++) out[i] = formatCents(values[i]);
      return out;
    }
    case 'date': {
      const values = column.values as Int32Array;
      for (let i = 0; i < out.length; i++) out[i] = formatDate(values[i]);
      return out;
    }
    default:
      break;
  }
  throw new Error(`no .tbl format for ${JSON.stringify(column.type)}`);
}

function formatWholeNumbers(column: Column): string[] {
  if (column.type.kind !== 'decimal') throw new Error(`not a decimal column: ${JSON.stringify(column.type)}`);
  const unit = 10 ** column.type.scale;
  return Array.from(int64ToNumbers(column.values as BigInt64Array), (v) => String(v / unit));
}

function formatCents(cents: number): string {
  const magnitude = Math.abs(cents);
  const units = Math.floor(magnitude / 100);
  const fraction = magnitude - units * 100;
  return (cents < 0 ? '-' : '') + units + (fraction < 10 ? '.0' : '.') + fraction;
}

const dateText = new Map<number, string>();

function formatDate(days: number): string {
  let text = dateText.get(days);
  if (text === undefined) {
    text = new Date(days * 86_400_000).toISOString().slice(0, 10);
    dateText.set(days, text);
  }
  return text;
}
