// Bitwise functions (Trino's functions/bitwise page) on two's complement integers. Shifts keep the
// value's type: the shifted bits are cut to its width, as Trino's do, and a shift of 64 or more
// clears the value (sign-fills it for the arithmetic right shift).

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, INTEGER, SMALLINT, TINYINT, type SqlType } from '../../types/types.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

/** Bits of each integer type; tinyint, smallint and integer values are JS numbers, bigint BigInt. */
const WIDTHS: ReadonlyArray<[SqlType, number]> = [
  [TINYINT, 8],
  [SMALLINT, 16],
  [INTEGER, 32],
  [BIGINT, 64],
];

function bitCount(value: bigint, bits: bigint): bigint {
  if (bits === 64n) return popCount(BigInt.asUintN(64, value));
  if (bits <= 1n || bits > 64n)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Bits specified in bit_count must be between 2 and 64, got ${bits}`);
  const lowBits = (1n << (bits - 1n)) - 1n;
  if (value > lowBits || value < -lowBits - 1n) {
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `Number must be representable with the bits specified. ${value} cannot be represented with ${bits} bits`,
    );
  }
  return popCount(BigInt.asUintN(Number(bits), value));
}

function popCount(value: bigint): bigint {
  let count = 0n;
  for (let v = value; v !== 0n; v &= v - 1n) count++;
  return count;
}

/** The shift a 64-bit Java shift applies: only the low six bits of the amount count. */
const shiftAmount = (shift: bigint): bigint => BigInt.asUintN(6, shift);

type Shift = (value: bigint, shift: bigint, width: number) => bigint;

const leftShift: Shift = (value, shift, width) => (shift >= 64n ? 0n : BigInt.asIntN(width, value << shiftAmount(shift)));
const logicalRightShift: Shift = (value, shift, width) =>
  shift >= 64n ? 0n : shift === 0n ? value : BigInt.asUintN(width, value) >> shiftAmount(shift);
const arithmeticRightShift: Shift = (value, shift, width) =>
  shift >= 64n ? (value < 0n ? -1n : 0n) : BigInt.asIntN(width, value) >> shiftAmount(shift);

/** One signature per integer type, the result in the value's type. */
function shiftFunction(name: string, description: string, shift: Shift): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    signatures: WIDTHS.map(
      ([type, width]): SignatureTemplate => ({
        params: [type, BIGINT],
        returnType: type,
        implement: () =>
          width === 64
            ? body((value: bigint, amount: bigint) => shift(value, amount, 64))
            : body((value: number, amount: bigint) => Number(shift(BigInt(value), amount, width))),
      }),
    ),
  };
}

const binaryBigint = (f: (a: bigint, b: bigint) => bigint): SignatureTemplate[] => [
  { params: [BIGINT, BIGINT], returnType: BIGINT, implement: () => body(f) },
];

export const BITWISE_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  { names: ['bit_count'], description: "Count number of set bits in 2's complement representation", signatures: binaryBigint(bitCount) },
  {
    names: ['bitwise_not'],
    description: 'Invert all bits',
    signatures: [{ params: [BIGINT], returnType: BIGINT, implement: () => body((x: bigint) => ~x) }],
  },
  { names: ['bitwise_and'], description: "Bitwise AND in 2's complement arithmetic", signatures: binaryBigint((a, b) => a & b) },
  { names: ['bitwise_or'], description: "Bitwise OR in 2's complement arithmetic", signatures: binaryBigint((a, b) => a | b) },
  { names: ['bitwise_xor'], description: "Bitwise XOR in 2's complement arithmetic", signatures: binaryBigint((a, b) => a ^ b) },
  shiftFunction('bitwise_left_shift', 'Shift left by the given number of bits', leftShift),
  shiftFunction('bitwise_right_shift', 'Shift right by the given number of bits, filling with zeros', logicalRightShift),
  shiftFunction('bitwise_right_shift_arithmetic', 'Shift right by the given number of bits, preserving the sign', arithmeticRightShift),
];
