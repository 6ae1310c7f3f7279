// The bytes of a statement response: its fields as JSON, with the rows (already JSON text, see
// coordinator/json-rows.ts) spliced in as `data` where Trino's QueryResults writes them, after
// `columns` and before `stats`.

import type { JsonRowsChunk } from '../coordinator/result-buffer.js';
import { stringifyJson } from '../types/exact-json.js';
import type { StatementResponseJson } from './statement-json.js';

const COMMA = Buffer.from(',');
const DATA_OPEN = Buffer.from(',"data":[');
const DATA_CLOSE = Buffer.from('],');

export function statementBody(response: StatementResponseJson, rows: JsonRowsChunk | undefined): Buffer {
  if (rows === undefined || rows.rowCount === 0) return Buffer.from(stringifyJson(response));
  const { id, infoUri, partialCancelUri, nextUri, columns, ...rest } = response;
  const head = stringifyJson({ id, infoUri, partialCancelUri, nextUri, columns });
  // `rest` always holds stats: the tail is a non-empty object.
  const tail = stringifyJson(rest);
  const pieces: Uint8Array[] = [Buffer.from(head.slice(0, -1)), DATA_OPEN];
  rows.parts.forEach((part, i) => {
    if (i > 0) pieces.push(COMMA);
    pieces.push(part);
  });
  pieces.push(DATA_CLOSE, Buffer.from(tail.slice(1)));
  return Buffer.concat(pieces);
}
