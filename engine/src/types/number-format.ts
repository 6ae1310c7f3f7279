// Doubles and reals as text the way Trino (Java's Double.toString / Float.toString) prints them:
// 0.1, 100.0, 1.0E7, 1.5E-5, NaN, Infinity. Digits are the shortest that round-trip.

/** The shortest decimal digits of `x` (> 0, finite) and its decimal exponent: x = 0.d1d2... × 10^(exp+1). */
function digitsAndExponent(text: string): { digits: string; exponent: number } {
  const [mantissa, exp] = text.split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(exp) };
}

function javaStyle(abs: number, exponentialText: string, negative: boolean): string {
  const { digits, exponent } = digitsAndExponent(exponentialText);
  let body: string;
  if (abs >= 1e-3 && abs < 1e7) {
    if (exponent >= 0) {
      const integral = digits.length > exponent + 1 ? digits.slice(0, exponent + 1) : digits + '0'.repeat(exponent + 1 - digits.length);
      const fraction = digits.length > exponent + 1 ? digits.slice(exponent + 1) : '0';
      body = `${integral}.${fraction}`;
    } else {
      body = `0.${'0'.repeat(-exponent - 1)}${digits}`;
    }
  } else {
    body = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exponent}`;
  }
  return negative ? `-${body}` : body;
}

function nonFinite(x: number): string | undefined {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return undefined;
}

export function formatDoubleAsText(x: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  return javaStyle(abs, abs.toExponential(), x < 0);
}

/** The shortest digits that read back as the same float32, in toExponential form. */
function shortestRealExponential(abs: number): string {
  for (let precision = 1; precision < 9; precision++) {
    const text = abs.toExponential(precision - 1);
    if (Math.fround(Number(text)) === abs) return text;
  }
  return abs.toExponential(8);
}

export function formatRealAsText(x: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  return javaStyle(abs, shortestRealExponential(abs), x < 0);
}

/** The double nearest the shortest decimal form of a float32 (0.1f -> 0.1, not 0.10000000149011612). */
export function realToShortestNumber(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const abs = Math.abs(x);
  const n = Number(shortestRealExponential(abs));
  return x < 0 ? -n : n;
}
