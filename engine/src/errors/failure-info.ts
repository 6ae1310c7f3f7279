// A failure as Trino reports it in task and query JSON: type, message, stack lines, suppressed
// failures, and the error location; with Trino's ErrorCode object beside it.

import type { EngineError } from './engine-error.js';

export interface ErrorLocationJson {
  lineNumber: number;
  columnNumber: number;
}

export interface FailureInfoJson {
  type: string;
  message: string;
  suppressed: FailureInfoJson[];
  stack: string[];
  errorLocation?: ErrorLocationJson;
}

export function failureInfoJson(error: EngineError): FailureInfoJson {
  const stack = (error.stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '));
  return {
    type: error.name,
    message: error.message,
    suppressed: [],
    stack,
    ...(error.location ? { errorLocation: { lineNumber: error.location.line, columnNumber: error.location.column } } : {}),
  };
}

/** Trino's ErrorCode object, as /v1/query reports it. */
export function errorCodeJson(error: EngineError): { code: number; name: string; type: string } {
  return { code: error.errorCode, name: error.errorName, type: error.errorType };
}
