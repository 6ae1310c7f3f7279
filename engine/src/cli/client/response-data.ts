// A statement response's `data` member cut out of its bytes, the rest decoded as text: the rows of a
// large result can then be printed straight from their JSON bytes (csv-from-json.ts) and only the
// small rest goes through the JSON parser. Any text it cannot walk is handed back whole.

import { COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipString, skipValue, skipWhitespace } from './json-bytes.js';

export interface SplitResponse {
  /** The response's JSON text without its `data` member (all of it when `data` is undefined). */
  rest: string;
  /** The `data` array's bytes, `[...]`. */
  data: Uint8Array | undefined;
}

const decoder = new TextDecoder();
const DATA_KEY = Buffer.from('"data"');

export function splitDataMember(body: Uint8Array): SplitResponse {
  const whole = (): SplitResponse => ({ rest: decoder.decode(body), data: undefined });
  let at = skipWhitespace(body, 0);
  if (body[at] !== OPEN_BRACE) return whole();
  at = skipWhitespace(body, at + 1);
  while (body[at] === QUOTE) {
    const keyStart = at;
    const keyEnd = skipString(body, keyStart);
    if (keyEnd < 0) return whole();
    at = skipWhitespace(body, keyEnd);
    if (body[at] !== COLON) return whole();
    const valueStart = skipWhitespace(body, at + 1);
    const valueEnd = skipValue(body, valueStart);
    if (valueEnd < 0) return whole();
    at = skipWhitespace(body, valueEnd);
    if (body[valueStart] === OPEN_BRACKET && isDataKey(body, keyStart, keyEnd)) {
      // The member goes with the comma after it, or when it is the last one, the comma before it.
      let cutStart = keyStart;
      let cutEnd = at;
      if (body[at] === COMMA) cutEnd = at + 1;
      else {
        let before = keyStart - 1;
        while (before > 0 && body[before] !== COMMA && body[before] !== OPEN_BRACE) before--;
        if (body[before] === COMMA) cutStart = before;
      }
      return {
        rest: decoder.decode(body.subarray(0, cutStart)) + decoder.decode(body.subarray(cutEnd)),
        data: body.subarray(valueStart, valueEnd),
      };
    }
    if (body[at] !== COMMA) break;
    at = skipWhitespace(body, at + 1);
  }
  return whole();
}

function isDataKey(body: Uint8Array, start: number, end: number): boolean {
  if (end - start !== DATA_KEY.length) return false;
  for (let i = 0; i < DATA_KEY.length; i++) if (body[start + i] !== DATA_KEY[i]) return false;
  return true;
}
