// Distribution functions of Trino's math page: the normal, beta and Student's t distributions and
// the Wilson score interval, with Trino's argument checks and messages. Trino computes the inverse
// beta cdf with a solver accurate to 1e-9; here it is solved to full double precision.

import { EngineError } from '../../../errors/engine-error.js';
import { BIGINT, DOUBLE } from '../../../types/types.js';
import { type ScalarFunctionDefinition, body } from '../signature.js';
import { erf, erfInv, logGamma, regularizedBeta } from './special-functions.js';

function check(condition: boolean, message: string): void {
  if (!condition) throw new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

export function normalCdf(mean: number, sd: number, value: number): number {
  check(sd > 0, 'standardDeviation must be > 0');
  return 0.5 * (1 + erf((value - mean) / (sd * Math.SQRT2)));
}

export function inverseNormalCdf(mean: number, sd: number, p: number): number {
  check(p > 0 && p < 1, 'p must be 0 > p > 1');
  check(sd > 0, 'sd must be > 0');
  return mean + sd * Math.SQRT2 * erfInv(2 * p - 1);
}

function checkBeta(a: number, b: number): void {
  check(a > 0 && b > 0, 'a, b must be > 0');
}

export function betaCdf(a: number, b: number, value: number): number {
  check(value >= 0 && value <= 1, 'value must be 0 >= v >= 1');
  checkBeta(a, b);
  return regularizedBeta(value, a, b);
}

/** The v in [0, 1] with betaCdf(a, b, v) = p: bisection (the cdf is monotonic) to the last bit. */
export function inverseBetaCdf(a: number, b: number, p: number): number {
  check(p >= 0 && p <= 1, 'p must be 0 >= p >= 1');
  checkBeta(a, b);
  let low = 0;
  let high = 1;
  if (p === 0) return 0;
  if (p === 1) return 1;
  while (true) {
    const middle = (low + high) / 2;
    if (middle <= low || middle >= high) return middle;
    if (regularizedBeta(middle, a, b) < p) low = middle;
    else high = middle;
  }
}

function checkDegrees(df: number): void {
  check(df >= 1, 'degrees of freedom must be greater than or equal to 1');
}

export function tCdf(x: number, df: number): number {
  checkDegrees(df);
  if (x === 0) return 0.5;
  const tail = 0.5 * regularizedBeta(df / (df + x * x), 0.5 * df, 0.5);
  return x < 0 ? tail : 1 - tail;
}

export function tPdf(x: number, df: number): number {
  checkDegrees(df);
  return Math.exp(
    logGamma((df + 1) / 2) - 0.5 * (Math.log(Math.PI) + Math.log(df)) - logGamma(df / 2) - ((df + 1) / 2) * Math.log1p((x * x) / df),
  );
}

function wilsonInterval(successes: bigint, trials: bigint, z: number, bound: -1 | 1): number {
  check(successes >= 0n, 'number of successes must not be negative');
  check(trials > 0n, 'number of trials must be positive');
  check(successes <= trials, 'number of successes must not be larger than number of trials');
  check(z >= 0, 'z-score must not be negative');
  const n = Number(trials);
  const p = Number(successes) / n;
  return (p + (z * z) / (2 * n) + bound * z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
}

const doubles = (count: number, f: (...args: number[]) => number) => [
  { params: Array.from({ length: count }, () => DOUBLE), returnType: DOUBLE, implement: () => body(f) },
];

export const DISTRIBUTION_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  { names: ['normal_cdf'], description: 'Normal cdf given a mean, standard deviation, and value', signatures: doubles(3, normalCdf) },
  {
    names: ['inverse_normal_cdf'],
    description: 'Inverse of normal cdf given a mean, std, and probability',
    signatures: doubles(3, inverseNormalCdf),
  },
  { names: ['beta_cdf'], description: 'Beta cdf given the a, b parameters and value', signatures: doubles(3, betaCdf) },
  {
    names: ['inverse_beta_cdf'],
    description: 'Inverse of Beta cdf given a, b parameters and probability',
    signatures: doubles(3, inverseBetaCdf),
  },
  {
    names: ['t_cdf'],
    description: "Student's t-distribution cumulative density function given the x and degrees of freedom",
    signatures: doubles(2, tCdf),
  },
  { names: ['t_pdf'], description: "Student's t-distribution given the x and degrees of freedom", signatures: doubles(2, tPdf) },
  {
    names: ['wilson_interval_lower'],
    description: 'Binomial confidence interval lower bound using Wilson score',
    signatures: [
      {
        params: [BIGINT, BIGINT, DOUBLE],
        returnType: DOUBLE,
        implement: () => body((s: bigint, t: bigint, z: number) => wilsonInterval(s, t, z, -1)),
      },
    ],
  },
  {
    names: ['wilson_interval_upper'],
    description: 'Binomial confidence interval upper bound using Wilson score',
    signatures: [
      {
        params: [BIGINT, BIGINT, DOUBLE],
        returnType: DOUBLE,
        implement: () => body((s: bigint, t: bigint, z: number) => wilsonInterval(s, t, z, 1)),
      },
    ],
  },
];
