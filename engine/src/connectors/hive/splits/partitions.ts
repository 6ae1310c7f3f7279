// Hive-style partition folders, `col=value/`, one level per partition column: the value text is
// path-escaped as Hive escapes it (`%2F` for `/`), and a NULL value is Hive's default partition name.
// Reading parses the text into the column's type; a query's constraint prunes a folder whose value
// cannot match before anything below it is listed.

import { EngineError } from '../../../errors/engine-error.js';
import type { ColumnDomain, ColumnMetadata } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import { castFunction } from '../../../types/casts.js';
import { VARCHAR } from '../../../types/types.js';
import { compareStrings } from '../../../types/chars.js';
import { formatValueAsText } from '../../../types/values.js';

export const DEFAULT_PARTITION_NAME = '__HIVE_DEFAULT_PARTITION__';

/** Characters Hive escapes in partition folder names (FileUtils.escapePathName). */
const ESCAPED = new Set(['"', '#', '%', "'", '*', '/', ':', '=', '?', '\\', '\u007f', '{', '[', ']', '^']);

export function escapePathName(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += code < 0x20 || ESCAPED.has(c) ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return out;
}

export function unescapePathName(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The folder name of one partition value: `dt=2024-01-01`. */
export function partitionFolderName(column: ColumnMetadata, value: Scalar): string {
  const text = value === null ? DEFAULT_PARTITION_NAME : escapePathName(formatValueAsText(value, column.type));
  return `${escapePathName(column.name)}=${text}`;
}

/**
 * The value text of a partition folder named `<column>=<text>` (undefined for NULL); fails naming
 * the folder when its name is not of that column.
 */
export function partitionValueText(folder: string, name: string, column: ColumnMetadata): string | undefined {
  const equals = name.indexOf('=');
  if (equals < 0 || unescapePathName(name.slice(0, equals)).toLowerCase() !== column.name.toLowerCase()) {
    throw new EngineError(
      'HIVE_PARTITION_SCHEMA_MISMATCH',
      `Partition folder ${folder} does not match the table's partition column '${column.name}' (expected ${column.name}=<value>)`,
    );
  }
  const text = name.slice(equals + 1);
  return text === DEFAULT_PARTITION_NAME ? undefined : unescapePathName(text);
}

/** A partition value of the column's type from its folder text; fails naming the folder. */
export function parsePartitionValue(text: string | undefined, column: ColumnMetadata, folder: string): Scalar {
  if (text === undefined) return null;
  try {
    return (castFunction(VARCHAR, column.type) as (v: string) => Scalar)(text);
  } catch (e) {
    const reason = e instanceof EngineError ? e.rawMessage : String(e);
    throw new EngineError(
      'HIVE_INVALID_PARTITION_VALUE',
      `Partition folder ${folder}: invalid value '${text}' for partition column '${column.name}': ${reason}`,
    );
  }
}

/**
 * Whether a row with `value` in the domain's column could match it. Only values of the same kind are
 * compared (a domain of another representation keeps the partition: pruning never drops what might match).
 */
export function mayMatch(value: Scalar, domain: ColumnDomain | undefined): boolean {
  if (domain === undefined) return true;
  // Every predicate the domain stands for is false on NULL.
  if (value === null) return false;
  if (
    domain.values !== undefined &&
    domain.values.every((v) => comparable(v, value)) &&
    !domain.values.some((v) => compare(v, value) === 0)
  )
    return false;
  if (domain.low !== undefined && comparable(domain.low.value, value)) {
    const c = compare(value, domain.low.value);
    if (c < 0 || (c === 0 && !domain.low.inclusive)) return false;
  }
  if (domain.high !== undefined && comparable(domain.high.value, value)) {
    const c = compare(value, domain.high.value);
    if (c > 0 || (c === 0 && !domain.high.inclusive)) return false;
  }
  return true;
}

function comparable(a: Scalar, b: Scalar): boolean {
  return (
    a !== null &&
    typeof a === typeof b &&
    (typeof a === 'number' || typeof a === 'bigint' || typeof a === 'string' || typeof a === 'boolean')
  );
}

/** SQL's order: strings by code point (as the predicate compares them), not by UTF-16 unit. */
function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'string') return compareStrings(a, b as string);
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}
