// resource.Quantity as the API writes it: parsing of "250m", "1.5", "128Mi", "2G", "1e3", and the
// canonical decimal form of a milli-value ("250m", "1", "12M") the metrics API and the HPA status use.
import { badRequest } from './status.js';

const suffixes: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const pattern = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|([KMGTPE]i|[numkMGTPE])?)$/;

/** The value in base units (cores, bytes); a 400 for what is not a quantity. */
export function parseQuantity(value: unknown): number {
  if (typeof value === 'number') return value;
  const m = typeof value === 'string' ? pattern.exec(value.trim()) : null;
  if (!m)
    throw badRequest(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(value)}`,
    );
  return Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : suffixes[m[3] ?? '']);
}

const decimalUp = ['m', '', 'k', 'M', 'G', 'T', 'P', 'E'];

/** A whole number of thousandths in canonical DecimalSI form: 250 -> "250m", 1000 -> "1", 12e9 -> "12M". */
export function formatMilli(milli: number): string {
  let v = Math.round(milli);
  if (v === 0) return '0';
  let i = 0;
  while (v % 1000 === 0 && i < decimalUp.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v}${decimalUp[i]}`;
}

/** Nanocores as metrics-server reports CPU usage: "12345678n". */
export function formatNanocores(cores: number): string {
  return `${Math.round(cores * 1e9)}n`;
}

/** Bytes in KiB as metrics-server reports memory: "10240Ki". */
export function formatKibibytes(bytes: number): string {
  return `${Math.round(bytes / 1024)}Ki`;
}
