// `$fail(error name, message)`: an internal function the planner puts where a row reaching a point of
// the plan is an error (a recursive query that did not converge). It raises the named error when
// evaluated; not deterministic, so constant folding never evaluates it ahead of a row.

import { ERROR_CODES, type ErrorName } from '../../errors/error-codes.js';
import { EngineError } from '../../errors/engine-error.js';
import { BOOLEAN, VARCHAR } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

function fail(errorName: string, message: string): never {
  throw new EngineError(Object.hasOwn(ERROR_CODES, errorName) ? (errorName as ErrorName) : 'GENERIC_INTERNAL_ERROR', message);
}

export const FAIL_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['$fail'],
    description: 'Raises the named error with the message',
    deterministic: false,
    signatures: [{ params: [VARCHAR, VARCHAR], returnType: BOOLEAN, implement: () => body(fail) }],
  },
];
