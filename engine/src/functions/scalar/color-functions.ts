// Trino's color functions: color values from CSS-style short hex, names and RGB components, colors
// interpolated between two, and text rendered in color with ANSI escapes (bar charts included).

import { constants as bufferConstants } from 'node:buffer';
import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { formatDoubleAsText } from '../../types/number-format.js';
import { interpolateColor } from '../../types/color-interpolation.js';
import { ANSI_RESET, type ColorCode, SYSTEM_COLORS, ansiColorEscape, colorCode, colorText } from '../../types/color-type.js';
import { BIGINT, BOOLEAN, COLOR, DOUBLE, type SqlType, VARCHAR, varchar } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

const VARCHAR_X = { family: 'varchar' } as const;
/** The characters render adds around its text: the color escape (at most 11) and the reset (4). */
const RENDER_OVERHEAD = 15;
const MAX_STRING_LENGTH = bufferConstants.MAX_STRING_LENGTH;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** `#rgb` (each hex digit doubled, as CSS reads it) or a system color's name in any case. */
function parseColor(text: string): ColorCode {
  if (/^#[0-9a-fA-F]{3}$/.test(text)) {
    const [red, green, blue] = [1, 2, 3].map((i) => Number.parseInt(text[i] + text[i], 16));
    return (red << 16) | (green << 8) | blue;
  }
  const upper = text.toUpperCase();
  const index = SYSTEM_COLORS.findIndex((name) => name.toUpperCase() === upper);
  if (index < 0) throw invalidArgument(`Invalid color: '${text}'`);
  return -(index + 1);
}

function rgb(red: bigint, green: bigint, blue: bigint): string {
  for (const [name, value] of [
    ['red', red],
    ['green', green],
    ['blue', blue],
  ] as const) {
    if (value < 0n || value > 255n) throw invalidArgument(`${name} must be between 0 and 255`);
  }
  return colorText((Number(red) << 16) | (Number(green) << 8) | Number(blue));
}

/** The color `fraction` (clamped to [0, 1]) of the way from low to high, both RGB colors. */
function colorBetween(fraction: number, low: string, high: string): string {
  const lowCode = colorCode(low);
  const highCode = colorCode(high);
  if (lowCode < 0) throw invalidArgument('lowColor not a valid RGB color');
  if (highCode < 0) throw invalidArgument('highColor not a valid RGB color');
  // Math.min and Math.max keep a NaN, as Java's do.
  return colorText(interpolateColor(Math.max(0, Math.min(1, fraction)), lowCode, highCode));
}

function render(text: string, color: string): string {
  return ansiColorEscape(colorCode(color)) + text + ANSI_RESET;
}

const RENDERED_TRUE = render('\u2713', 'green');
const RENDERED_FALSE = render('\u2717', 'red');

/** Java's (int) cast of a double: toward zero, NaN to 0, clamped to the int range. */
function javaInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(x)));
}

/** `width` characters: the first `fraction` of them full blocks shaded from low to high, then a reset and spaces. */
function bar(fraction: number, width: bigint, low: string, high: string): string {
  const count = Math.max(0, Math.min(Number(width), javaInt(fraction * Number(width))));
  const blocks = Math.max(0, Number(width) - count);
  const lowCode = colorCode(low);
  const highCode = colorCode(high);
  // Each block is at most 12 characters (escape and block).
  if (count * 12 + ANSI_RESET.length + blocks > MAX_STRING_LENGTH)
    throw invalidArgument(`A bar of width ${width} would be longer than ${MAX_STRING_LENGTH} characters, the longest string supported`);
  const parts: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const color = interpolateColor(i / (Number(width) - 1), lowCode, highCode);
    parts[i] = `${ansiColorEscape(color)}\u2588`;
  }
  return parts.join('') + ANSI_RESET + ' '.repeat(blocks);
}

/** varchar(x) renders as varchar(x + 15), capped at Trino's longest varchar. */
function renderedType([text]: readonly SqlType[]): SqlType {
  const length = text.kind === 'varchar' ? text.length : undefined;
  return length === undefined ? VARCHAR : varchar(Math.min(2147483647, length + RENDER_OVERHEAD));
}

const redToGreenBar = (x: number, width: bigint): string => bar(x, width, '#ff0000', '#00ff00');
const renderBigint = (v: bigint, color: string): string => render(String(v), color);
const renderDouble = (v: number, color: string): string => render(formatDoubleAsText(v), color);
const renderBoolean = (b: Scalar): string => (b === true || b === 1 ? RENDERED_TRUE : RENDERED_FALSE);
const colorOfRange = (value: number, low: number, high: number, lowColor: string, highColor: string): string =>
  colorBetween((value - low) / (high - low), lowColor, highColor);

// Trino declares no descriptions for these: SHOW FUNCTIONS shows them empty.
export const COLOR_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['color'],
    description: '',
    signatures: [
      { params: [VARCHAR_X], returnType: COLOR, implement: () => body((s: string) => colorText(parseColor(s))) },
      { params: [DOUBLE, DOUBLE, DOUBLE, COLOR, COLOR], returnType: COLOR, implement: () => body(colorOfRange) },
      { params: [DOUBLE, COLOR, COLOR], returnType: COLOR, implement: () => body(colorBetween) },
    ],
  },
  {
    names: ['rgb'],
    description: '',
    signatures: [{ params: [BIGINT, BIGINT, BIGINT], returnType: COLOR, implement: () => body(rgb) }],
  },
  {
    names: ['render'],
    description: '',
    signatures: [
      { params: [VARCHAR_X, COLOR], returnType: renderedType, returnTypeDisplay: 'varchar(y)', implement: () => body(render) },
      { params: [BIGINT, COLOR], returnType: varchar(35), implement: () => body(renderBigint) },
      { params: [DOUBLE, COLOR], returnType: varchar(41), implement: () => body(renderDouble) },
      { params: [BOOLEAN], returnType: varchar(16), implement: () => body(renderBoolean) },
    ],
  },
  {
    names: ['bar'],
    description: '',
    signatures: [
      { params: [DOUBLE, BIGINT], returnType: VARCHAR, implement: () => body(redToGreenBar) },
      { params: [DOUBLE, BIGINT, COLOR, COLOR], returnType: VARCHAR, implement: () => body(bar) },
    ],
  },
];
