// The one error class every layer throws; the server turns it into Trino's error JSON.

import { ERROR_CODES, type ErrorName } from './error-codes.js';

/** A 1-based position in the SQL text. */
export interface SourceLocation {
  line: number;
  column: number;
}

export class EngineError extends Error {
  constructor(
    readonly errorName: ErrorName,
    /** The message without its position prefix. */
    readonly rawMessage: string,
    readonly location?: SourceLocation,
  ) {
    super(location ? `line ${location.line}:${location.column}: ${rawMessage}` : rawMessage);
    this.name = 'EngineError';
  }

  get errorCode(): number {
    return ERROR_CODES[this.errorName].code;
  }

  get errorType(): string {
    return ERROR_CODES[this.errorName].type;
  }
}

/** Shorthand: `throw sqlError('COLUMN_NOT_FOUND', "Column 'x' cannot be resolved", node.location)`. */
export function sqlError(name: ErrorName, message: string, location?: SourceLocation): EngineError {
  return new EngineError(name, message, location);
}

export function notSupported(what: string, location?: SourceLocation): EngineError {
  return new EngineError('NOT_SUPPORTED', what, location);
}

/** Runs `f`; an EngineError it throws without a position gets `location` (where the statement asked for what failed). */
export function locatedAt<T>(location: SourceLocation | undefined, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EngineError && e.location === undefined && location !== undefined) {
      const located = new EngineError(e.errorName, e.rawMessage, location);
      located.stack = e.stack;
      throw located;
    }
    throw e;
  }
}

/** locatedAt for asynchronous work: a connector's error without a position gets the statement's. */
export async function locatedAsync<T>(location: SourceLocation | undefined, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    return locatedAt(location, () => {
      throw e;
    });
  }
}

/** Any thrown value as an EngineError (unknown errors become GENERIC_INTERNAL_ERROR). */
export function toEngineError(e: unknown): EngineError {
  if (e instanceof EngineError) return e;
  if (isStackOverflow(e)) return nestedTooDeeplyToProcess();
  const err = new EngineError('GENERIC_INTERNAL_ERROR', e instanceof Error ? e.message : String(e));
  if (e instanceof Error && e.stack) err.stack = e.stack;
  return err;
}

/** Whether `e` is the JS engine running out of stack. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /Maximum call stack/.test(e.message);
}

/** What a statement that ran the engine out of stack fails with. */
export function nestedTooDeeplyToProcess(): EngineError {
  return new EngineError(
    'GENERIC_USER_ERROR',
    'Statement is nested too deeply to process: the engine ran out of stack (nest expressions and queries less deeply)',
  );
}
