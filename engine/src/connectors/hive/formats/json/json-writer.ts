// JSON lines of pages: one object per row, keyed by column name. Numbers are written exactly
// (bigints and decimals as their digits); NaN and the infinities, which JSON has no numbers for, as
// the strings Trino prints; dates and timestamps as their text; NULL as null.

import type { ColumnMetadata } from '../../../../spi/connector.js';
import { getScalar } from '../../../../columnar/page.js';
import { formatValueAsText } from '../../../../types/values.js';
import type { SqlType } from '../../../../types/types.js';
import { textParser } from '../text/text-columns.js';
import type { PageLines } from '../text/text-writer.js';

export function jsonLines(columns: readonly ColumnMetadata[]): PageLines {
  for (const c of columns) textParser(c.type, c.name);
  const keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
  return (page) => {
    let out = '';
    for (let row = 0; row < page.rowCount; row++) {
      out += '{';
      for (let c = 0; c < columns.length; c++) {
        if (c > 0) out += ',';
        out += keys[c] + jsonValue(getScalar(page.columns[c], row), columns[c].type);
      }
      out += '}\n';
    }
    return out;
  };
}

function jsonValue(value: ReturnType<typeof getScalar>, type: SqlType): string {
  if (value === null) return 'null';
  switch (type.kind) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'decimal':
      return formatValueAsText(value, type);
    case 'double':
    case 'real':
      return Number.isFinite(value) ? formatValueAsText(value, type) : JSON.stringify(formatValueAsText(value, type));
    default:
      return JSON.stringify(formatValueAsText(value, type));
  }
}
