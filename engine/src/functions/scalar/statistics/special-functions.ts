// The special functions the distribution functions need, in double precision: erf and its inverse,
// the log of the gamma function (Lanczos) and the regularized incomplete beta function (a continued
// fraction evaluated with Lentz's method). Each is accurate to a few units in the last place over
// the range the SQL functions use; tests check them against Python's math.erf/lgamma and closed forms.

const TWO_OVER_SQRT_PI = 1.1283791670955126;
const EPSILON = 1e-16;
const TINY = 1e-300;

/** erf by its everywhere-positive series below 3 (no cancellation), 1 - erfc's continued fraction above. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax >= 6) return Math.sign(x);
  if (ax < 3) {
    // erf(x) = 2/sqrt(pi) · e^(-x²) · Σ 2^n x^(2n+1) / (1·3···(2n+1))
    let term = ax;
    let sum = ax;
    for (let n = 1; term > sum * EPSILON; n++) {
      term *= (2 * ax * ax) / (2 * n + 1);
      sum += term;
    }
    return Math.sign(x) * TWO_OVER_SQRT_PI * Math.exp(-ax * ax) * sum;
  }
  return Math.sign(x) * (1 - erfcLarge(ax));
}

/** erfc(x) for x >= 3: e^(-x²)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), by Lentz. */
function erfcLarge(x: number): number {
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 200; k++) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < TINY ? TINY : d;
    c = x + a / c;
    c = Math.abs(c) < TINY ? TINY : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** The x with erf(x) = y, for -1 < y < 1: a closed-form start refined by Newton's method on erf. */
export function erfInv(y: number): number {
  if (y <= -1) return y === -1 ? -Infinity : NaN;
  if (y >= 1) return y === 1 ? Infinity : NaN;
  if (y === 0) return 0;
  // Winitzki's approximation (relative error below 2e-3) as the start.
  const a = 0.147;
  const ln = Math.log(1 - y * y);
  const first = 2 / (Math.PI * a) + ln / 2;
  let x = Math.sign(y) * Math.sqrt(Math.sqrt(first * first - ln / a) - first);
  for (let i = 0; i < 8; i++) {
    const step = (erf(x) - y) / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
    x -= step;
    if (Math.abs(step) <= Math.abs(x) * EPSILON) break;
  }
  return x;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** Γ(x) exactly as a double product where x is a whole or half number up to 170: the common case. */
function exactGamma(x: number): number | undefined {
  if (x > 170 || x <= 0 || !Number.isInteger(2 * x)) return undefined;
  let product = Number.isInteger(x) ? 1 : Math.sqrt(Math.PI);
  for (let factor = x - 1; factor > 0; factor -= 1) product *= factor;
  return product;
}

/** ln Γ(x) for x > 0 (exact products for whole and half numbers, Lanczos with g = 7 otherwise). */
export function logGamma(x: number): number {
  const exact = exactGamma(x);
  if (exact !== undefined) return Math.log(exact);
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 and a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (Number.isNaN(x) || Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The continued fraction converges fast only below the mean; above it, use I_x(a,b) = 1 - I_(1-x)(b,a).
  if (x > (a + 1) / (a + b + 2)) return 1 - regularizedBeta(1 - x, b, a);
  const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - (logGamma(a) + logGamma(b) - logGamma(a + b))) / a;
  return front * betaContinuedFraction(x, a, b);
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < TINY ? TINY : d);
  let f = d;
  for (let m = 1; m < 10000; m++) {
    for (const numerator of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + numerator * d;
      d = 1 / (Math.abs(d) < TINY ? TINY : d);
      c = 1 + numerator / c;
      c = Math.abs(c) < TINY ? TINY : c;
      f *= c * d;
    }
    if (Math.abs(c * d - 1) < EPSILON) break;
  }
  return f;
}
