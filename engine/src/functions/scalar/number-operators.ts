// +, -, *, /, % and unary minus on NUMBER (types/number/number-arithmetic.ts); the integral types
// and decimal coerce to NUMBER, so `bigint + number` binds here too.

import { NUMBER } from '../../types/types.js';
import {
  addNumbers,
  divideNumbers,
  multiplyNumbers,
  negateNumber,
  remainderNumbers,
  subtractNumbers,
} from '../../types/number/number-arithmetic.js';
import { type NumberValue, numberText, numberValue } from '../../types/number/number-value.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

type Binary = (a: NumberValue, b: NumberValue) => NumberValue;

function binary(name: string, description: string, operation: Binary): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    signatures: [
      {
        params: [NUMBER, NUMBER],
        returnType: NUMBER,
        implement: () => body((a: string, b: string) => numberText(operation(numberValue(a), numberValue(b)))),
      },
    ],
  };
}

export const NUMBER_OPERATORS: readonly ScalarFunctionDefinition[] = [
  binary('add', 'Addition', addNumbers),
  binary('subtract', 'Subtraction', subtractNumbers),
  binary('multiply', 'Multiplication', multiplyNumbers),
  binary('divide', 'Division', divideNumbers),
  binary('modulus', 'Remainder of division', remainderNumbers),
  {
    names: ['negate'],
    description: 'Negation',
    signatures: [{ params: [NUMBER], returnType: NUMBER, implement: () => body((a: string) => numberText(negateNumber(numberValue(a)))) }],
  },
];
