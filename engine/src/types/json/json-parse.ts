// json_parse and JSON literals: the canonical text of a JSON text, or Trino's error for text that is not JSON.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { JsonSyntaxError, canonicalJson } from './json-node.js';

export function jsonParse(text: string, location?: SourceLocation): string {
  try {
    return canonicalJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot convert value to JSON: '${text}'`, location);
    throw e;
  }
}
