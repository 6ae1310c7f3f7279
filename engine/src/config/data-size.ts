// Data sizes as Trino (airlift DataSize) writes them: `2GB`, `512MB`, `1.50kB`, `0B` (1024-based).

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

const SIZE_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtTpP]?[bB])\s*$/;

/** Parses `2GB`, `1.5MB`, `100kB`, `42B` (units case-insensitive) to bytes; undefined if malformed. */
export function parseDataSize(text: string): number | undefined {
  const match = SIZE_PATTERN.exec(text);
  if (!match) return undefined;
  const unit = match[2]!.toUpperCase();
  const exponent = UNITS.findIndex((u) => u.toUpperCase() === unit);
  return Math.round(Number(match[1]) * 1024 ** exponent);
}

/** The succinct form airlift prints: the largest unit with a value >= 1; integral values without decimals. */
export function formatDataSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(2);
  return `${text}${UNITS[unit]}`;
}

/** JSON Schema fragment for a size setting: bytes as an integer, or a size string. */
export const DATA_SIZE_SCHEMA = {
  oneOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: SIZE_PATTERN.source },
  ],
} as const;
