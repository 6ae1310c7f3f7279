// Durations as Trino (airlift Duration) writes them: `1.23s`, `45.00ms`, `15.00m`, `0.00ns`.

const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['ns', 1e-6],
  ['us', 1e-3],
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
];

const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ns|us|ms|s|m|h|d)\s*$/;

/** Parses `15m`, `1.5s`, `200ms` to milliseconds; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  const millisPerUnit = UNITS.find(([name]) => name === match[2])![1];
  return Number(match[1]) * millisPerUnit;
}

/** The most succinct unit whose value is >= 1 (nanoseconds for zero), with two decimals. */
export function formatDuration(millis: number): string {
  let chosen = UNITS[0]!;
  for (const unit of UNITS) {
    if (Math.abs(millis) >= unit[1]) chosen = unit;
  }
  return `${(millis / chosen[1]).toFixed(2)}${chosen[0]}`;
}

/** JSON Schema fragment for a duration setting: milliseconds as an integer, or a duration string. */
export const DURATION_SCHEMA = {
  oneOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: DURATION_PATTERN.source },
  ],
} as const;
