// Where JSON text stops being JSON: JSON.parse says only that it is not (without a position in
// Node 20), while a person fixing a rules file needs the line and column. The json type's reader
// (types/json/json-node.ts) knows the offset of the first offending character.

import { JsonSyntaxError, parseJsonText } from '../../types/json/json-node.js';

export interface TextPosition {
  line: number;
  column: number;
}

/** The 1-based line and column of the first character that makes `text` invalid JSON, or undefined when it is valid. */
export function jsonSyntaxErrorPosition(text: string): TextPosition | undefined {
  try {
    parseJsonText(text);
    return undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return positionOf(text, e.offset);
    throw e;
  }
}

export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
