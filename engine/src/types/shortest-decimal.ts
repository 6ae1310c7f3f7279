// The decimal Java's Double.toString and Float.toString (JDK 19 and later) print for a binary
// floating-point value: of the decimals that round to the value, those with the fewest digits,
// and of them the closest to the value, the one with the even last digit at a tie; when a single
// digit suffices, the closest decimal of one or two digits.
//
// At each number of digits only two decimals can qualify (the grid points on either side of the
// value), and whether one rounds to the value is a comparison with the ends of the value's rounding
// interval: exact in doubles for a float, whose interval ends are doubles, and in bigint arithmetic
// where doubles cannot decide (a tie, or a double's interval ends). A float needs at most 9 digits,
// and whether some decimal of n digits rounds to it only grows with n: a binary search finds the fewest.

export interface Decimal {
  /** The significant digits, without trailing zeros. */
  digits: string;
  /** The power of ten of the first digit: the value is d.ddd × 10^exponent. */
  exponent: number;
  /** The double nearest the decimal. */
  value: number;
}

/** mant × 2^exp2 exactly; `value` is the same number as a double when a double holds it exactly. */
interface ExactBinary {
  mant: number | bigint;
  exp2: number;
  value?: number;
}

/** n × 10^e, with n of a given number of digits; `value` is the double nearest it. */
interface Candidate {
  n: number;
  e: number;
  value: number;
}

/** The value and the ends of the interval of numbers that round to it. */
interface RoundingInterval {
  self: ExactBinary & { value: number };
  low: ExactBinary;
  high: ExactBinary;
  /** Whether the ends themselves round to the value: round-half-even, so when its significand is even. */
  inclusive: boolean;
  /** The larger distance from the value to an end, where doubles hold it (a float's). */
  widerHalf?: number;
}

/** Every float has a decimal of this many digits that rounds to it. */
const FLOAT_MAX_DIGITS = 9;

const view = new DataView(new ArrayBuffer(8));

/** The decimal Float.toString prints for `x`, a positive finite float32. */
export function shortestFloatDecimal(x: number): Decimal {
  const interval = floatInterval(x);
  let fewest = FLOAT_MAX_DIGITS;
  let found = closestWithDigits(x, FLOAT_MAX_DIGITS, interval)!;
  let none = 0;
  while (fewest - none > 1) {
    const digits = (none + fewest) >> 1;
    const closest = closestWithDigits(x, digits, interval);
    if (closest === undefined) {
      none = digits;
    } else {
      fewest = digits;
      found = closest;
    }
  }
  // One digit suffices: Java lets the two-digit decimals compete (1.4E-45, not 1.0E-45).
  return toDecimal(fewest === 1 ? closestWithDigits(x, 2, interval)! : found);
}

/**
 * The decimal Double.toString prints for `x`, a positive double whose shortest decimal has one digit:
 * the closest one of one or two digits (4.9E-324, not 5.0E-324). Only a subnormal can differ from the one digit.
 */
export function closestTwoDigitDoubleDecimal(x: number): Decimal {
  return toDecimal(closestWithDigits(x, 2, doubleInterval(x))!);
}

function toDecimal({ n, e, value }: Candidate): Decimal {
  const text = String(n);
  return { digits: text.replace(/0+$/, ''), exponent: e + text.length - 1, value };
}

function floatInterval(x: number): RoundingInterval {
  view.setFloat32(0, x);
  const bits = view.getUint32(0);
  const biased = bits >>> 23;
  const fraction = bits & 0x7fffff;
  const mant = biased === 0 ? fraction : fraction | 0x800000;
  const exp2 = biased === 0 ? -149 : biased - 150;
  // In units of 2^(exp2 - 2): the value is 4·mant; its neighbours are 4 units away, or 2 below a power of two.
  // These have 26 significant bits at most, so doubles hold them exactly.
  const unit = 2 ** (exp2 - 2);
  const low = 4 * mant - (fraction === 0 && biased > 1 ? 1 : 2);
  const high = 4 * mant + 2;
  return {
    self: { mant, exp2, value: x },
    low: { mant: low, exp2: exp2 - 2, value: low * unit },
    high: { mant: high, exp2: exp2 - 2, value: high * unit },
    inclusive: mant % 2 === 0,
    widerHalf: Math.max(4 * mant - low, high - 4 * mant) * unit,
  };
}

function doubleInterval(x: number): RoundingInterval {
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mant = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp2 = biased === 0 ? -1074 : biased - 1075;
  return {
    self: { mant, exp2, value: x },
    low: { mant: 4n * mant - (fraction === 0n && biased > 1 ? 1n : 2n), exp2: exp2 - 2 },
    high: { mant: 4n * mant + 2n, exp2: exp2 - 2 },
    inclusive: (mant & 1n) === 0n,
  };
}

/** The decimal of `digits` digits that rounds to `x` and is closest to it, if there is one. */
function closestWithDigits(x: number, digits: number, interval: RoundingInterval): Candidate | undefined {
  const text = x.toExponential(digits - 1);
  const mark = text.indexOf('e');
  const nearest: Candidate = {
    n: Number(text.slice(0, mark).replace('.', '')),
    e: Number(text.slice(mark + 1)) - (digits - 1),
    value: Number(text),
  };
  const side = compare(nearest, interval.self);
  if (side === 0) return nearest;
  const nearestFits = rounds(nearest, interval);
  // The grid point on the other side is at least half a step away (a step ten times finer below a power of
  // ten): when that is beyond the wider half of the interval, it cannot round to x.
  const step = side > 0 && nearest.n === 10 ** (digits - 1) ? 10 ** (nearest.e - 1) : 10 ** nearest.e;
  if (interval.widerHalf !== undefined && step > 2 * interval.widerHalf) return nearestFits ? nearest : undefined;
  const other = neighbour(nearest, digits, side < 0 ? 1 : -1);
  const otherFits = rounds(other, interval);
  if (!nearestFits || !otherFits) return nearestFits ? nearest : otherFits ? other : undefined;
  // Both round to x, one on each side: the closer one; toExponential breaks a tie upwards, Java to the even digit.
  const [below, above] = side < 0 ? [nearest, other] : [other, nearest];
  const order = compareSumWithTwice(below, above, interval.self);
  if (order !== 0) return order > 0 ? below : above;
  return below.n % 2 === 0 ? below : above;
}

/** The next decimal of `digits` digits up (+1) or down (-1); the grid is ten times finer below a power of ten. */
function neighbour({ n, e }: Candidate, digits: number, direction: 1 | -1): Candidate {
  const smallest = 10 ** (digits - 1);
  let next = n + direction;
  let exponent = e;
  if (next === smallest * 10) {
    next = smallest;
    exponent++;
  } else if (next < smallest) {
    next = smallest * 10 - 1;
    exponent--;
  }
  return { n: next, e: exponent, value: Number(`${next}e${exponent}`) };
}

function rounds(c: Candidate, { low, high, inclusive }: RoundingInterval): boolean {
  const fromLow = compare(c, low);
  if (fromLow < 0 || (fromLow === 0 && !inclusive)) return false;
  const fromHigh = compare(c, high);
  return fromHigh < 0 || (fromHigh === 0 && inclusive);
}

/**
 * Sign of c − b. The double nearest c decides unless it equals b: rounding to the nearest double keeps
 * order, so a decimal whose double is below (above) the double b is itself below (above) b.
 */
function compare(c: Candidate, b: ExactBinary): number {
  if (b.value !== undefined && c.value !== b.value) return c.value < b.value ? -1 : 1;
  return compareExact(BigInt(c.n), c.e, BigInt(b.mant), b.exp2);
}

/** Sign of (below + above) − 2·x: positive when `below` is the closer. */
function compareSumWithTwice(below: Candidate, above: Candidate, x: ExactBinary): number {
  const e = Math.min(below.e, above.e);
  const sum = BigInt(below.n) * 10n ** BigInt(below.e - e) + BigInt(above.n) * 10n ** BigInt(above.e - e);
  return compareExact(sum, e, 2n * BigInt(x.mant), x.exp2);
}

/** Sign of n·10^e10 − mant·2^exp2, in integers. */
function compareExact(n: bigint, e10: number, mant: bigint, exp2: number): number {
  let left = n;
  let right = mant;
  if (e10 >= 0) left *= 10n ** BigInt(e10);
  else right *= 10n ** BigInt(-e10);
  if (exp2 >= 0) right *= 2n ** BigInt(exp2);
  else left *= 2n ** BigInt(-exp2);
  return left < right ? -1 : left > right ? 1 : 0;
}
