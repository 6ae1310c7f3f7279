// Error codes as Trino names and numbers them (StandardErrorCode), so clients that branch on
// errorName or errorCode behave the same against this engine.

export type ErrorType = 'USER_ERROR' | 'INTERNAL_ERROR' | 'INSUFFICIENT_RESOURCES' | 'EXTERNAL';

export interface ErrorCodeInfo {
  code: number;
  type: ErrorType;
}

export const ERROR_CODES = {
  GENERIC_USER_ERROR: { code: 0, type: 'USER_ERROR' },
  SYNTAX_ERROR: { code: 1, type: 'USER_ERROR' },
  ABANDONED_QUERY: { code: 2, type: 'USER_ERROR' },
  USER_CANCELED: { code: 3, type: 'USER_ERROR' },
  PERMISSION_DENIED: { code: 4, type: 'USER_ERROR' },
  NOT_FOUND: { code: 5, type: 'USER_ERROR' },
  FUNCTION_NOT_FOUND: { code: 6, type: 'USER_ERROR' },
  INVALID_FUNCTION_ARGUMENT: { code: 7, type: 'USER_ERROR' },
  DIVISION_BY_ZERO: { code: 8, type: 'USER_ERROR' },
  INVALID_CAST_ARGUMENT: { code: 9, type: 'USER_ERROR' },
  OPERATOR_NOT_FOUND: { code: 10, type: 'USER_ERROR' },
  INVALID_VIEW: { code: 11, type: 'USER_ERROR' },
  ALREADY_EXISTS: { code: 12, type: 'USER_ERROR' },
  NOT_SUPPORTED: { code: 13, type: 'USER_ERROR' },
  INVALID_SESSION_PROPERTY: { code: 14, type: 'USER_ERROR' },
  INVALID_WINDOW_FRAME: { code: 15, type: 'USER_ERROR' },
  INVALID_WINDOW_REFERENCE: { code: 90, type: 'USER_ERROR' },
  CONSTRAINT_VIOLATION: { code: 16, type: 'USER_ERROR' },
  NUMERIC_VALUE_OUT_OF_RANGE: { code: 19, type: 'USER_ERROR' },
  SUBQUERY_MULTIPLE_ROWS: { code: 28, type: 'USER_ERROR' },
  QUERY_REJECTED: { code: 31, type: 'USER_ERROR' },
  AMBIGUOUS_FUNCTION_CALL: { code: 32, type: 'USER_ERROR' },
  SCHEMA_NOT_EMPTY: { code: 34, type: 'USER_ERROR' },
  QUERY_TEXT_TOO_LARGE: { code: 35, type: 'USER_ERROR' },
  UNSUPPORTED_SUBQUERY: { code: 36, type: 'USER_ERROR' },
  TYPE_NOT_FOUND: { code: 43, type: 'USER_ERROR' },
  MISSING_CATALOG_NAME: { code: 44, type: 'USER_ERROR' },
  MISSING_SCHEMA_NAME: { code: 45, type: 'USER_ERROR' },
  TABLE_NOT_FOUND: { code: 46, type: 'USER_ERROR' },
  COLUMN_NOT_FOUND: { code: 47, type: 'USER_ERROR' },
  CATALOG_NOT_FOUND: { code: 48, type: 'USER_ERROR' },
  SCHEMA_NOT_FOUND: { code: 49, type: 'USER_ERROR' },
  TYPE_MISMATCH: { code: 58, type: 'USER_ERROR' },
  AMBIGUOUS_NAME: { code: 59, type: 'USER_ERROR' },
  DUPLICATE_COLUMN_NAME: { code: 60, type: 'USER_ERROR' },
  DUPLICATE_NAMED_QUERY: { code: 61, type: 'USER_ERROR' },
  INVALID_LITERAL: { code: 62, type: 'USER_ERROR' },
  EXPRESSION_NOT_AGGREGATE: { code: 63, type: 'USER_ERROR' },
  EXPRESSION_NOT_CONSTANT: { code: 64, type: 'USER_ERROR' },
  NESTED_AGGREGATION: { code: 65, type: 'USER_ERROR' },
  NESTED_WINDOW: { code: 66, type: 'USER_ERROR' },
  INVALID_COLUMN_REFERENCE: { code: 67, type: 'USER_ERROR' },
  MISMATCHED_COLUMN_ALIASES: { code: 68, type: 'USER_ERROR' },
  INVALID_ORDER_BY: { code: 70, type: 'USER_ERROR' },
  EXPRESSION_NOT_IN_DISTINCT: { code: 71, type: 'USER_ERROR' },
  EXPRESSION_NOT_SCALAR: { code: 72, type: 'USER_ERROR' },
  INVALID_ARGUMENTS: { code: 74, type: 'USER_ERROR' },
  INVALID_PARAMETER_USAGE: { code: 79, type: 'USER_ERROR' },
  COLUMN_TYPE_UNKNOWN: { code: 80, type: 'USER_ERROR' },
  MISSING_COLUMN_NAME: { code: 81, type: 'USER_ERROR' },
  GENERIC_INTERNAL_ERROR: { code: 65536, type: 'INTERNAL_ERROR' },
  PAGE_TRANSPORT_ERROR: { code: 65539, type: 'INTERNAL_ERROR' },
  SERVER_SHUTTING_DOWN: { code: 65549, type: 'INTERNAL_ERROR' },
  REMOTE_TASK_ERROR: { code: 65542, type: 'INTERNAL_ERROR' },
  REMOTE_TASK_MISMATCH: { code: 65544, type: 'INTERNAL_ERROR' },
  REMOTE_HOST_GONE: { code: 65558, type: 'INTERNAL_ERROR' },
  GENERIC_INSUFFICIENT_RESOURCES: { code: 131072, type: 'INSUFFICIENT_RESOURCES' },
  EXCEEDED_TIME_LIMIT: { code: 131073, type: 'INSUFFICIENT_RESOURCES' },
  QUERY_QUEUE_FULL: { code: 131074, type: 'INSUFFICIENT_RESOURCES' },
  EXCEEDED_LOCAL_MEMORY_LIMIT: { code: 131079, type: 'INSUFFICIENT_RESOURCES' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorName = keyof typeof ERROR_CODES;
