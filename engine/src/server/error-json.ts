// A query's error as Trino's clients read it: message, errorCode, errorName, errorType,
// errorLocation, and failureInfo with the stack as an array of lines.

import type { EngineError } from '../errors/engine-error.js';

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

export interface QueryErrorJson {
  message: string;
  errorCode: number;
  errorName: string;
  errorType: string;
  errorLocation?: ErrorLocationJson;
  failureInfo: FailureInfoJson;
}

export function queryErrorJson(error: EngineError): QueryErrorJson {
  const failureInfo = failureInfoJson(error);
  return {
    message: error.message,
    errorCode: error.errorCode,
    errorName: error.errorName,
    errorType: error.errorType,
    ...(failureInfo.errorLocation ? { errorLocation: failureInfo.errorLocation } : {}),
    failureInfo,
  };
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
