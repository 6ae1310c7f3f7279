// Mathematical functions (Trino's MathFunctions).

import { EngineError } from '../../errors/engine-error.js';
import { checkDecimalOverflow, powerOfTen, rescale } from '../../types/decimal.js';
import { type SqlType, BIGINT, DOUBLE, INTEGER, REAL, SMALLINT, TINYINT, decimal, MAX_DECIMAL_PRECISION } from '../../types/types.js';
import { NUMERIC_ARITHMETIC_OPERATORS } from './arithmetic-operators.js';
import { BIGINT_MAX, BIGINT_MIN, INTEGRAL_RANGE, isSmallIntegral } from './integer-arithmetic.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';
import { comparatorFor } from './value-comparison.js';
import type { Scalar } from '../../types/scalar.js';

const DECIMAL = { family: 'decimal' } as const;
const INTEGRALS = [TINYINT, SMALLINT, INTEGER, BIGINT] as const;
const FLOATS = [REAL, DOUBLE] as const;

function decimalParams(t: SqlType): { precision: number; scale: number } {
  if (t.kind !== 'decimal') throw new Error(`expected a decimal type, got ${t.kind}`);
  return t;
}

/** `f(x)` on doubles only (integers and decimals coerce to double). */
function doubleFunction(names: string[], description: string, f: (x: number) => number): ScalarFunctionDefinition {
  return { names, description, signatures: [{ params: [DOUBLE], returnType: DOUBLE, implement: () => body(f) }] };
}

/** The same body on every integral type and both floating types, returning the argument's type. */
function numericIdentityTyped(
  integral: (t: SqlType) => (x: never) => Scalar,
  floating: (x: number) => number,
  decimalTemplate: SignatureTemplate,
): SignatureTemplate[] {
  return [
    ...INTEGRALS.map((t): SignatureTemplate => ({ params: [t], returnType: t, implement: () => body(integral(t)) })),
    decimalTemplate,
    { params: [REAL], returnType: REAL, implement: () => body((x: number) => Math.fround(floating(x))) },
    { params: [DOUBLE], returnType: DOUBLE, implement: () => body(floating) },
  ];
}

const identity = () => (x: Scalar) => x;

/** decimal(p,s) -> decimal(min(38, p - s + min(s, 1)), 0): the type of round/ceil/floor without digits. */
function integralPartType([t]: readonly SqlType[]): SqlType {
  const { precision, scale } = decimalParams(t);
  return decimal(Math.min(MAX_DECIMAL_PRECISION, precision - scale + Math.min(scale, 1)), 0);
}

function decimalToIntegral(mode: 'round' | 'ceil' | 'floor'): SignatureTemplate {
  return {
    params: [DECIMAL],
    returnType: integralPartType,
    implement: ([t]) => {
      const { scale } = decimalParams(t);
      const factor = powerOfTen(scale);
      if (mode === 'round') return body((x: bigint) => rescale(x, scale, 0));
      return body((x: bigint) => {
        const q = x / factor;
        if (q * factor === x) return q;
        if (mode === 'ceil') return x > 0n ? q + 1n : q;
        return x < 0n ? q - 1n : q;
      });
    },
  };
}

function absIntegral(t: SqlType): (x: never) => Scalar {
  if (t.kind === 'bigint') {
    return ((x: bigint) => {
      if (x === BIGINT_MIN) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Value ${x} is out of range for abs(bigint)`);
      return x < 0n ? -x : x;
    }) as (x: never) => Scalar;
  }
  if (!isSmallIntegral(t)) throw new Error('not integral');
  const { min } = INTEGRAL_RANGE[t.kind];
  return ((x: number) => {
    if (x === min) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Value ${x} is out of range for abs(${t.kind})`);
    return Math.abs(x);
  }) as (x: never) => Scalar;
}

/** Trino's round(double, d): half away from zero on the scaled value. */
export function roundDouble(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const factor = 10 ** digits;
  if (!Number.isFinite(factor) || factor === 0) return digits > 0 ? x : 0 * x;
  return x < 0 ? -(Math.round(-x * factor) / factor) : Math.round(x * factor) / factor;
}

/** round(n, d) on an integral value: only negative d changes it (half away from zero). */
function roundIntegral(t: SqlType): (x: never, d: number) => Scalar {
  if (t.kind === 'bigint') {
    return ((x: bigint, d: number) => {
      if (d >= 0) return x;
      if (d < -19) return 0n;
      const factor = powerOfTen(-d);
      const r = rescale(x, 0, d) * factor; // rescale rounds HALF_UP
      if (r > BIGINT_MAX || r < BIGINT_MIN)
        throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Value ${x} is out of range for round(bigint, ${d})`);
      return r;
    }) as (x: never, d: number) => Scalar;
  }
  if (!isSmallIntegral(t)) throw new Error('not integral');
  const { min, max } = INTEGRAL_RANGE[t.kind];
  return ((x: number, d: number) => {
    if (d >= 0) return x;
    const factor = 10 ** -d;
    const r = Math.sign(x) * Math.round(Math.abs(x) / factor) * factor + 0;
    if (r > max || r < min) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Value ${x} is out of range for round(${t.kind}, ${d})`);
    return r;
  }) as (x: never, d: number) => Scalar;
}

/** round(decimal(p,s), d) -> decimal(min(38, p + 1), s), and truncate(decimal(p,s), d) -> decimal(p,s). */
function decimalWithDigits(mode: 'round' | 'truncate'): SignatureTemplate {
  return {
    params: [DECIMAL, INTEGER],
    returnType: ([t]) => {
      const { precision, scale } = decimalParams(t);
      return mode === 'round' ? decimal(Math.min(MAX_DECIMAL_PRECISION, precision + 1), scale) : t;
    },
    implement: ([t], r) => {
      const { scale } = decimalParams(t);
      const precision = decimalParams(r).precision;
      return body((x: bigint, d: number) => {
        if (d >= scale) return x;
        const drop = powerOfTen(scale - Math.max(d, scale - 2 * MAX_DECIMAL_PRECISION));
        const kept = mode === 'round' ? rescale(x, scale, Math.max(d, scale - 2 * MAX_DECIMAL_PRECISION)) : x / drop;
        return checkDecimalOverflow(kept * drop, precision);
      });
    },
  };
}

function greatestOrLeast(name: 'greatest' | 'least'): ScalarFunctionDefinition {
  return {
    names: [name],
    description: `Returns the ${name} of the arguments`,
    signatures: [
      {
        params: [{ variable: 'T' }],
        variadic: { minArgs: 1 },
        returnType: ([t]) => t,
        implement: ([t]) => {
          const compare = comparatorFor(t);
          const floating = t.kind === 'double' || t.kind === 'real';
          const sign = name === 'greatest' ? 1 : -1;
          return body((...args: Scalar[]) => {
            let best = args[0];
            for (let i = 0; i < args.length; i++) {
              const v = args[i];
              if (floating && v !== v) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid argument to ${name}(): NaN`);
              if (i > 0 && sign * compare(v, best) > 0) best = v;
            }
            return best;
          });
        },
      },
    ],
  };
}

function randomBelow(t: SqlType): SignatureTemplate {
  return {
    params: [t],
    returnType: t,
    implement: () =>
      body((bound: number | bigint) => {
        if (bound <= 0) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'bound must be positive');
        if (typeof bound === 'bigint') {
          // Two 32-bit draws cover the 63-bit range; the modulo bias is below 2^-30.
          const draw = (BigInt(Math.floor(Math.random() * 2 ** 32)) << 31n) ^ BigInt(Math.floor(Math.random() * 2 ** 31));
          return draw % bound;
        }
        return Math.floor(Math.random() * bound);
      }),
  };
}

const modulus = NUMERIC_ARITHMETIC_OPERATORS.find((d) => d.names[0] === 'modulus');
if (modulus === undefined) throw new Error('modulus operator missing');

const signOf = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : x); // keeps NaN, 0 and -0

export const MATH_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['abs'],
    description: 'Absolute value',
    signatures: numericIdentityTyped(absIntegral, Math.abs, {
      params: [DECIMAL],
      returnType: ([t]) => t,
      implement: () => body((x: bigint) => (x < 0n ? -x : x)),
    }),
  },
  {
    names: ['ceil', 'ceiling'],
    description: 'Round up to nearest integer',
    signatures: numericIdentityTyped(identity, Math.ceil, decimalToIntegral('ceil')),
  },
  {
    names: ['floor'],
    description: 'Round down to nearest integer',
    signatures: numericIdentityTyped(identity, Math.floor, decimalToIntegral('floor')),
  },
  {
    names: ['round'],
    description: 'Round to nearest integer, or to d decimal places',
    signatures: [
      ...numericIdentityTyped(identity, (x) => roundDouble(x, 0), decimalToIntegral('round')),
      ...INTEGRALS.map((t): SignatureTemplate => ({ params: [t, INTEGER], returnType: t, implement: () => body(roundIntegral(t)) })),
      decimalWithDigits('round'),
      { params: [REAL, INTEGER], returnType: REAL, implement: () => body((x: number, d: number) => Math.fround(roundDouble(x, d))) },
      { params: [DOUBLE, INTEGER], returnType: DOUBLE, implement: () => body(roundDouble) },
    ],
  },
  {
    names: ['truncate'],
    description: 'Round toward zero',
    signatures: [
      {
        params: [DECIMAL],
        returnType: ([t]) => {
          const { precision, scale } = decimalParams(t);
          return decimal(Math.max(1, precision - scale), 0);
        },
        implement: ([t]) => {
          const factor = powerOfTen(decimalParams(t).scale);
          return body((x: bigint) => x / factor);
        },
      },
      decimalWithDigits('truncate'),
      { params: [REAL], returnType: REAL, implement: () => body(Math.trunc) },
      { params: [DOUBLE], returnType: DOUBLE, implement: () => body(Math.trunc) },
      {
        params: [DOUBLE, INTEGER],
        returnType: DOUBLE,
        implement: () =>
          body((x: number, d: number) => {
            const factor = 10 ** d;
            return Number.isFinite(x * factor) ? Math.trunc(x * factor) / factor : x;
          }),
      },
    ],
  },
  { names: ['mod'], description: 'Remainder of given quotient', signatures: modulus.signatures },
  {
    names: ['sign'],
    description: 'Signum',
    signatures: [
      ...INTEGRALS.map(
        (t): SignatureTemplate => ({
          params: [t],
          returnType: t,
          implement: () => body(t.kind === 'bigint' ? (x: bigint) => (x > 0n ? 1n : x < 0n ? -1n : 0n) : (x: number) => signOf(x) + 0),
        }),
      ),
      { params: [DECIMAL], returnType: decimal(1, 0), implement: () => body((x: bigint) => (x > 0n ? 1n : x < 0n ? -1n : 0n)) },
      ...FLOATS.map((t): SignatureTemplate => ({ params: [t], returnType: t, implement: () => body(signOf) })),
    ],
  },
  {
    names: ['power', 'pow'],
    description: 'Value raised to the power of exponent',
    signatures: [{ params: [DOUBLE, DOUBLE], returnType: DOUBLE, implement: () => body(Math.pow) }],
  },
  doubleFunction(['sqrt'], 'Square root', Math.sqrt),
  doubleFunction(['cbrt'], 'Cube root', Math.cbrt),
  doubleFunction(['ln'], 'Natural logarithm', Math.log),
  doubleFunction(['log10'], 'Logarithm to base 10', Math.log10),
  doubleFunction(['log2'], 'Logarithm to base 2', Math.log2),
  {
    names: ['log'],
    description: 'Logarithm to given base',
    signatures: [
      { params: [DOUBLE, DOUBLE], returnType: DOUBLE, implement: () => body((b: number, x: number) => Math.log(x) / Math.log(b)) },
    ],
  },
  doubleFunction(['exp'], 'Euler number raised to the given power', Math.exp),
  doubleFunction(['degrees'], 'Converts an angle in radians to degrees', (x) => (x * 180) / Math.PI),
  doubleFunction(['radians'], 'Converts an angle in degrees to radians', (x) => (x / 180) * Math.PI),
  doubleFunction(['sin'], 'Sine', Math.sin),
  doubleFunction(['cos'], 'Cosine', Math.cos),
  doubleFunction(['tan'], 'Tangent', Math.tan),
  doubleFunction(['asin'], 'Arc sine', Math.asin),
  doubleFunction(['acos'], 'Arc cosine', Math.acos),
  doubleFunction(['atan'], 'Arc tangent', Math.atan),
  doubleFunction(['sinh'], 'Hyperbolic sine', Math.sinh),
  doubleFunction(['cosh'], 'Hyperbolic cosine', Math.cosh),
  doubleFunction(['tanh'], 'Hyperbolic tangent', Math.tanh),
  {
    names: ['atan2'],
    description: 'Arc tangent of given fraction',
    signatures: [{ params: [DOUBLE, DOUBLE], returnType: DOUBLE, implement: () => body(Math.atan2) }],
  },
  { names: ['pi'], description: 'The constant Pi', signatures: [{ params: [], returnType: DOUBLE, implement: () => body(() => Math.PI) }] },
  { names: ['e'], description: "Euler's number", signatures: [{ params: [], returnType: DOUBLE, implement: () => body(() => Math.E) }] },
  { names: ['infinity'], description: 'Infinity', signatures: [{ params: [], returnType: DOUBLE, implement: () => body(() => Infinity) }] },
  {
    names: ['nan'],
    description: 'Constant representing not-a-number',
    signatures: [{ params: [], returnType: DOUBLE, implement: () => body(() => NaN) }],
  },
  {
    names: ['is_nan'],
    description: 'Test if value is not-a-number',
    signatures: FLOATS.map(
      (t): SignatureTemplate => ({ params: [t], returnType: { kind: 'boolean' }, implement: () => body(Number.isNaN) }),
    ),
  },
  {
    names: ['is_finite'],
    description: 'Test if value is finite',
    signatures: [{ params: [DOUBLE], returnType: { kind: 'boolean' }, implement: () => body(Number.isFinite) }],
  },
  {
    names: ['is_infinite'],
    description: 'Test if value is infinite',
    signatures: [
      { params: [DOUBLE], returnType: { kind: 'boolean' }, implement: () => body((x: number) => x === Infinity || x === -Infinity) },
    ],
  },
  {
    names: ['random', 'rand'],
    description: 'A pseudo-random value',
    deterministic: false,
    signatures: [{ params: [], returnType: DOUBLE, implement: () => body(() => Math.random()) }, ...INTEGRALS.map(randomBelow)],
  },
  greatestOrLeast('greatest'),
  greatestOrLeast('least'),
];
