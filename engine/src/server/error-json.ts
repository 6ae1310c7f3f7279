// A query's error as Trino's clients read it: message, errorCode, errorName, errorType,
// errorLocation, and failureInfo with the stack as an array of lines.

import type { EngineError } from '../errors/engine-error.js';
import { failureInfoJson, type ErrorLocationJson, type FailureInfoJson } from '../errors/failure-info.js';

export { errorCodeJson, failureInfoJson, type ErrorLocationJson, type FailureInfoJson } from '../errors/failure-info.js';

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
