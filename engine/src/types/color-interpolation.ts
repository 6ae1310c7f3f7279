// A color between two RGB colors, as Trino interpolates: in HSB space, in single precision, with the
// HSB conversions of java.awt.Color (every step rounded to float so the result matches Trino's bit for bit).

import { type ColorCode, rgbComponents } from './color-type.js';

const f = Math.fround;

/** Java's (int) cast of a float: toward zero, NaN to 0, clamped to the int range. */
function javaInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(x)));
}

type Hsb = [hue: number, saturation: number, brightness: number];

function rgbToHsb(code: ColorCode): Hsb {
  const [r, g, b] = rgbComponents(code);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const brightness = f(max / 255);
  const saturation = max === 0 ? 0 : f((max - min) / max);
  if (saturation === 0) return [0, saturation, brightness];
  const spread = max - min;
  const redc = f((max - r) / spread);
  const greenc = f((max - g) / spread);
  const bluec = f((max - b) / spread);
  let hue: number;
  if (r === max) hue = f(bluec - greenc);
  else if (g === max) hue = f(f(2 + redc) - bluec);
  else hue = f(f(4 + greenc) - redc);
  hue = f(hue / 6);
  if (hue < 0) hue = f(hue + 1);
  return [hue, saturation, brightness];
}

/** A float in [0, 1] as a color component 0..255, rounded half up. */
function component(x: number): number {
  return javaInt(f(f(x * 255) + 0.5));
}

function hsbToRgb([hue, saturation, brightness]: Hsb): ColorCode {
  let rgb: [number, number, number];
  if (saturation === 0) {
    const v = component(brightness);
    rgb = [v, v, v];
  } else {
    const h = f(f(hue - f(Math.floor(hue))) * 6);
    const fraction = f(h - f(Math.floor(h)));
    const p = f(brightness * f(1 - saturation));
    const q = f(brightness * f(1 - f(saturation * fraction)));
    const t = f(brightness * f(1 - f(saturation * f(1 - fraction))));
    const v = brightness;
    const sextants: Record<number, [number, number, number]> = {
      0: [v, t, p],
      1: [q, v, p],
      2: [p, v, t],
      3: [p, q, v],
      4: [t, p, v],
      5: [v, p, q],
    };
    const chosen = sextants[javaInt(h)];
    rgb = chosen === undefined ? [0, 0, 0] : (chosen.map(component) as [number, number, number]);
  }
  // Java ORs in an opaque alpha, which the caller masks off again: only the 24 RGB bits remain.
  return ((rgb[0] << 16) | (rgb[1] << 8) | rgb[2]) & 0xffffff;
}

/** The color `fraction` of the way from `low` to `high` (both RGB colors); fraction is taken as a float. */
export function interpolateColor(fraction: number, low: ColorCode, high: ColorCode): ColorCode {
  const x = f(fraction);
  const from = rgbToHsb(low);
  const to = rgbToHsb(high);
  const mix = (i: number): number => f(f(x * f(to[i] - from[i])) + from[i]);
  return hsbToRgb([mix(0), mix(1), mix(2)]);
}
