// Turns the JSON values of a response into the text the CLI shows, as Trino's CLI does: NULL,
// varbinary as hex bytes, arrays as [a, b], maps as {k=v}.

const NUMERIC_TYPE = /^(tinyint|smallint|integer|bigint|real|double|decimal)\b/;

export function isNumericType(type: string): boolean {
  return NUMERIC_TYPE.test(type);
}

/** Display text of a value of the given type; null for SQL NULL (each format prints it its own way). */
export function formatValue(value: unknown, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'varbinary' && typeof value === 'string') return hexBytes(value);
  return formatNested(value);
}

function formatNested(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return `[${value.map(formatNested).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${formatNested(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function hexBytes(base64: string): string {
  return [...Buffer.from(base64, 'base64')].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}
