// A page with a column of every SQL type, holding each type's edge values and a NULL, and an exact
// comparison of pages (Object.is per value: -0, NaN and ±Infinity must survive as they are).

import { expect } from 'chai';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { typeName, type SqlType } from '../../src/types/types.js';
import { zoneKeyOf } from '../../src/types/time-zones.js';
import { packZoned } from '../../src/types/zoned-timestamp.js';
import { packLongZoned } from '../../src/types/long-zoned-timestamp.js';
import { PICOS_PER_DAY, packZonedTime } from '../../src/types/zoned-time.js';

const MAX_LONG_DECIMAL = 10n ** 38n - 1n;

/** Each type with rows of values (NULL included); every column has the same number of rows. */
export const ALL_TYPES_COLUMNS: readonly { type: SqlType; values: Scalar[] }[] = [
  { type: { kind: 'boolean' }, values: [true, false, null, true, false, true] },
  { type: { kind: 'tinyint' }, values: [-128, 127, null, 0, -1, 1] },
  { type: { kind: 'smallint' }, values: [-32768, 32767, null, 0, -1, 1] },
  { type: { kind: 'integer' }, values: [-2147483648, 2147483647, null, 0, -1, 1] },
  { type: { kind: 'bigint' }, values: [-(2n ** 63n), 2n ** 63n - 1n, null, 0n, 2n ** 53n + 1n, -1n] },
  { type: { kind: 'real' }, values: [Math.fround(3.14), -0, null, NaN, Infinity, -Infinity] },
  { type: { kind: 'double' }, values: [Number.MIN_VALUE, -0, null, NaN, Infinity, -Number.MAX_VALUE] },
  { type: { kind: 'decimal', precision: 12, scale: 2 }, values: [123450n, -999999999999n, null, 0n, 999999999999n, -1n] },
  {
    type: { kind: 'decimal', precision: 38, scale: 10 },
    values: [MAX_LONG_DECIMAL, -MAX_LONG_DECIMAL, null, 0n, 2n ** 64n, -(2n ** 64n) - 1n],
  },
  { type: { kind: 'varchar', length: 25 }, values: ['plain', '', null, 'é ü ß', '😀 astral 𝄞', 'a\u0000b'] },
  { type: { kind: 'varchar' }, values: ['x'.repeat(1000), 'ok', null, '中文', '\uD83D\uDE00', ' '] },
  { type: { kind: 'char', length: 3 }, values: ['abc', 'a  ', null, '   ', 'é😀 ', 'xyz'] },
  // NUMBER as its canonical text: 51 digits, a large exponent, NaN and the infinities.
  {
    type: { kind: 'number' },
    values: ['3.1415926535897932384626433832795028841971693993751', '-1.234E+79', null, 'NaN', '+Infinity', '-Infinity'],
  },
  {
    type: { kind: 'varbinary' },
    values: [new Uint8Array([0, 255, 1]), new Uint8Array(0), null, new Uint8Array([128]), new Uint8Array(300).fill(7), new Uint8Array([1])],
  },
  { type: { kind: 'date' }, values: [0, -719162, null, 2932896, 19000, -1] },
  { type: { kind: 'time', precision: 6 }, values: [0, 86_399_999_999, null, 43_200_000_001, 1, 3_600_000_000] },
  {
    type: { kind: 'timestamp', precision: 3 },
    values: [0, -62_135_596_800_000_000, null, 253_402_300_799_999_000, 1_700_000_000_123_000, -1000],
  },
  // timestamp(4..6) in picoseconds too (long-plain-temporal.ts): 9999-12-31 23:59:59.999999 among them
  {
    type: { kind: 'timestamp', precision: 6 },
    values: [1_700_000_000_123_456_000_000n, -1_000_000n, null, 0n, 946_684_800_000_001_000_000n, 253_402_300_799_999_999_000_000n],
  },
  // picoseconds since the epoch (timestamp) or of the day (time): the year 1 and 9999, -123001, either side of the epoch
  {
    type: { kind: 'timestamp', precision: 12 },
    values: [0n, -62_135_596_800_000_000_000_000n, null, 253_402_300_799_999_999_999_999n, -3_944_288_383_503_876_543_210_988n, -1n],
  },
  {
    type: { kind: 'timestamp', precision: 7 },
    values: [1_700_000_000_123_456_700_000n, -100_000n, null, 0n, 946_684_800_000_000_100_000n, 1n * 10n ** 25n],
  },
  {
    type: { kind: 'time', precision: 12 },
    values: [0n, 86_399_999_999_999_999n, null, 43_200_000_000_000_001n, 1n, 3_600_000_000_000_000n],
  },
  {
    // epoch millis << 12 | zone key: UTC, a region zone, the year 1 and 9999, fixed offsets at the ends of the range
    type: { kind: 'timestamp with time zone', precision: 3 },
    values: [
      packZoned(0, zoneKeyOf('UTC')),
      packZoned(-62_135_596_800_000, zoneKeyOf('America/Los_Angeles')),
      null,
      packZoned(253_402_300_799_999, zoneKeyOf('Asia/Kathmandu')),
      packZoned(1_700_000_000_123, zoneKeyOf('+14:00')),
      packZoned(-1, zoneKeyOf('-14:00')),
    ],
  },
  {
    // millis, picoseconds of the milli and zone key: the same ends of the range, with 0 and 999,999,999 picos
    type: { kind: 'timestamp with time zone', precision: 12 },
    values: [
      packLongZoned(0, 1, zoneKeyOf('UTC')),
      packLongZoned(-62_135_596_800_000, 999_999_999, zoneKeyOf('America/Los_Angeles')),
      null,
      packLongZoned(253_402_300_799_999, 999_999_999, zoneKeyOf('Asia/Kathmandu')),
      packLongZoned(1_700_000_000_123, 456_789_012, zoneKeyOf('+14:00')),
      packLongZoned(-1, 0, zoneKeyOf('-14:00')),
    ],
  },
  {
    // normalized picoseconds of the day and the offset: midnight, the last picosecond, the offset range
    type: { kind: 'time with time zone', precision: 12 },
    values: [
      packZonedTime(0n, 0),
      packZonedTime(PICOS_PER_DAY - 1n, 14 * 60),
      null,
      packZonedTime(43_200_000_000_000_001n, -14 * 60),
      packZonedTime(1n, 345),
      packZonedTime(0n, -1),
    ],
  },
  { type: { kind: 'interval year to month' }, values: [14, -14, null, 0, 2147483647, -2147483648] },
  { type: { kind: 'interval day to second' }, values: [86_400_000, -1, null, 0, 9_007_199_254_740_991, -9_007_199_254_740_991] },
  { type: { kind: 'unknown' }, values: [null, null, null, null, null, null] },
  // Sketches are bytes on the wire like varbinary, their type kept by the plan.
  {
    type: { kind: 'sketch', sketch: 'HyperLogLog' },
    values: [
      new Uint8Array([2, 12, 0, 0]),
      null,
      new Uint8Array(2053).fill(3, 0, 1),
      new Uint8Array([2, 12, 1, 0, 9, 8, 7, 6]),
      null,
      new Uint8Array([2, 11, 0, 0]),
    ],
  },
  {
    type: { kind: 'sketch', sketch: 'tdigest' },
    values: [null, new Uint8Array(37), new Uint8Array([0, 1]), null, new Uint8Array(53).fill(255), new Uint8Array(0)],
  },
  {
    type: { kind: 'sketch', sketch: 'qdigest(real)' },
    values: [new Uint8Array(45), null, null, new Uint8Array([0, 7]), new Uint8Array(62).fill(9), new Uint8Array(0)],
  },
];

export const ALL_TYPES: readonly SqlType[] = ALL_TYPES_COLUMNS.map((c) => c.type);

export function allTypesPage(): Page {
  return { rowCount: ALL_TYPES_COLUMNS[0].values.length, columns: ALL_TYPES_COLUMNS.map((c) => columnFromScalars(c.type, c.values)) };
}

/** Fails unless `actual` has the types and exactly the values of `expected`. */
export function expectSamePage(actual: Page, expected: Page): void {
  expect(actual.rowCount).to.equal(expected.rowCount);
  expect(actual.columns.map((c) => typeName(c.type))).to.deep.equal(expected.columns.map((c) => typeName(c.type)));
  expect(actual.columns.map((c) => c.type)).to.deep.equal(expected.columns.map((c) => c.type));
  for (let col = 0; col < expected.columns.length; col++) {
    for (let row = 0; row < expected.rowCount; row++) {
      const a = getScalar(actual.columns[col], row);
      const e = getScalar(expected.columns[col], row);
      const where = `${typeName(expected.columns[col].type)} row ${row}`;
      if (e instanceof Uint8Array) expect(a, where).to.be.instanceOf(Uint8Array).and.to.deep.equal(e);
      else expect(Object.is(a, e), `${where}: ${String(a)} should be ${String(e)}`).to.equal(true);
    }
  }
}
