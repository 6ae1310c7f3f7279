// json_parse and JSON literals: the canonical text of a JSON text, or Trino's error for text that is not JSON
// (json_parse: INVALID_FUNCTION_ARGUMENT; a literal: INVALID_LITERAL, found at analysis).

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { JsonSyntaxError, canonicalJson } from './json-node.js';

export function jsonParse(text: string): string {
  try {
    return canonicalJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot convert value to JSON: '${text}'`);
    throw e;
  }
}

/** A JSON '...' literal's stored text; INVALID_LITERAL at the literal when it is not JSON. */
export function jsonLiteral(text: string, location: SourceLocation): string {
  try {
    return canonicalJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new EngineError('INVALID_LITERAL', `'${text}' is not a valid JSON literal`, location);
    throw e;
  }
}
