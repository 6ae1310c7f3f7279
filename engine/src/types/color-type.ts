// Trino's color type. Trino holds a color as an int: an RGB value 0xRRGGBB, or one of the eight ANSI
// system colors as -(index + 1). The engine holds it as the text Trino's client receives for it
// (ColorType's object value): `#rrggbb` in lowercase hex, or the system color's name.

import { EngineError } from '../errors/engine-error.js';

/** The ANSI system colors, in the order of their ANSI indexes 0..7. */
export const SYSTEM_COLORS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;

/** A color as Trino's int: >= 0 an RGB value, < 0 the system color of index -(code + 1). */
export type ColorCode = number;

export function colorText(code: ColorCode): string {
  if (code < 0) return SYSTEM_COLORS[-(code + 1)];
  return `#${code.toString(16).padStart(6, '0')}`;
}

export function colorCode(text: string): ColorCode {
  if (text.startsWith('#')) return Number.parseInt(text.slice(1), 16);
  const index = SYSTEM_COLORS.indexOf(text as (typeof SYSTEM_COLORS)[number]);
  if (index < 0) throw new EngineError('GENERIC_INTERNAL_ERROR', `Invalid color value: ${text}`);
  return -(index + 1);
}

/** The red, green and blue components of an RGB color; a system color has none (Trino's error). */
export function rgbComponents(code: ColorCode): [red: number, green: number, blue: number] {
  if (code < 0) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'color is not a valid rgb value');
  return [(code >> 16) & 0xff, (code >> 8) & 0xff, code & 0xff];
}

/** The escape that sets the terminal's foreground to the color: ESC[38;5;<index>m over the 256-color palette. */
export function ansiColorEscape(code: ColorCode): string {
  return `\u001b[38;5;${ansiIndex(code)}m`;
}

export const ANSI_RESET = '\u001b[0m';

/** A system color is its own index; an RGB color maps to the 6x6x6 cube at 16..231. */
function ansiIndex(code: ColorCode): number {
  if (code < 0) return -code - 1;
  const [red, green, blue] = rgbComponents(code).map((c) => Math.floor((c * 6) / 256));
  return 16 + red * 36 + green * 6 + blue;
}
