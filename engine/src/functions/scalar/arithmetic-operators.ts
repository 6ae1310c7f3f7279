// +, -, *, /, % and unary minus on the numeric types (temporal arithmetic is in temporal-operators.ts).

import { type SqlType, BIGINT, DOUBLE, REAL, TINYINT, SMALLINT, INTEGER } from '../../types/types.js';
import {
  decimalAddType,
  decimalAddition,
  decimalDivideType,
  decimalDivision,
  decimalModulus,
  decimalModulusType,
  decimalMultiplication,
  decimalMultiplyType,
  type DecimalImplementation,
} from './decimal-arithmetic.js';
import { BIGINT_OPERATIONS, type IntegralOperations, smallIntegralOperations } from './integer-arithmetic.js';
import { type ScalarFunctionDefinition, type ScalarImplementation, type SignatureTemplate, body, operatorBody } from './signature.js';

function decimalBody({ invoke, inline }: DecimalImplementation): ScalarImplementation {
  return body(invoke, { inline });
}

type BinaryName = 'add' | 'subtract' | 'multiply' | 'divide' | 'modulus';

const DECIMAL = { family: 'decimal' } as const;

function integralSignatures(name: BinaryName): SignatureTemplate[] {
  const small = (type: SqlType & { kind: 'tinyint' | 'smallint' | 'integer' }): SignatureTemplate => {
    const ops: IntegralOperations<number> = smallIntegralOperations(type.kind);
    return { params: [type, type], returnType: type, implement: () => body(ops[name]) };
  };
  return [
    small(TINYINT as SqlType & { kind: 'tinyint' }),
    small(SMALLINT as SqlType & { kind: 'smallint' }),
    small(INTEGER as SqlType & { kind: 'integer' }),
    { params: [BIGINT, BIGINT], returnType: BIGINT, implement: () => body(BIGINT_OPERATIONS[name]) },
  ];
}

// IEEE semantics, as in Trino: x/0 is ±Infinity or NaN, x%0 is NaN.
const FLOATING_OPERATORS: Record<BinaryName, string> = { add: '+', subtract: '-', multiply: '*', divide: '/', modulus: '%' };

function floatingSignatures(name: BinaryName): SignatureTemplate[] {
  const operator = FLOATING_OPERATORS[name];
  return [
    { params: [REAL, REAL], returnType: REAL, implement: () => operatorBody(operator, 'Math.fround') },
    { params: [DOUBLE, DOUBLE], returnType: DOUBLE, implement: () => operatorBody(operator) },
  ];
}

const DECIMAL_SIGNATURES: Record<BinaryName, SignatureTemplate> = {
  add: {
    params: [DECIMAL, DECIMAL],
    returnType: ([a, b]) => decimalAddType(a, b),
    implement: ([a, b], r) => decimalBody(decimalAddition(a, b, r, 1)),
  },
  subtract: {
    params: [DECIMAL, DECIMAL],
    returnType: ([a, b]) => decimalAddType(a, b),
    implement: ([a, b], r) => decimalBody(decimalAddition(a, b, r, -1)),
  },
  multiply: {
    params: [DECIMAL, DECIMAL],
    returnType: ([a, b]) => decimalMultiplyType(a, b),
    implement: ([a, b], r) => decimalBody(decimalMultiplication(a, b, r)),
  },
  divide: {
    params: [DECIMAL, DECIMAL],
    returnType: ([a, b]) => decimalDivideType(a, b),
    implement: ([a, b], r) => body(decimalDivision(a, b, r)),
  },
  modulus: {
    params: [DECIMAL, DECIMAL],
    returnType: ([a, b]) => decimalModulusType(a, b),
    implement: ([a, b], r) => body(decimalModulus(a, b, r)),
  },
};

function binary(name: BinaryName, description: string): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    signatures: [...integralSignatures(name), DECIMAL_SIGNATURES[name], ...floatingSignatures(name)],
  };
}

export const NUMERIC_ARITHMETIC_OPERATORS: readonly ScalarFunctionDefinition[] = [
  binary('add', 'Addition'),
  binary('subtract', 'Subtraction'),
  binary('multiply', 'Multiplication'),
  binary('divide', 'Division'),
  binary('modulus', 'Remainder of division'),
  {
    names: ['negate'],
    description: 'Negation',
    signatures: [
      ...(['tinyint', 'smallint', 'integer'] as const).map(
        (kind): SignatureTemplate => ({
          params: [{ kind }],
          returnType: { kind },
          implement: () => body(smallIntegralOperations(kind).negate),
        }),
      ),
      { params: [BIGINT], returnType: BIGINT, implement: () => body(BIGINT_OPERATIONS.negate) },
      { params: [DECIMAL], returnType: ([a]) => a, implement: () => body((a: bigint) => -a) },
      { params: [REAL], returnType: REAL, implement: () => body((a: number) => -a) },
      { params: [DOUBLE], returnType: DOUBLE, implement: () => body((a: number) => -a) },
    ],
  },
];
