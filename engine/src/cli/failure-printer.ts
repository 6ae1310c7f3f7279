// Prints a failed statement as Trino's CLI does: the message, then the offending line with a caret
// under the error position.
//
// Query 20261121_223001_00003_k7x2p failed: line 1:15: Table 'memory.default.nope' does not exist
// LINE 1: SELECT * FROM memory.default.nope
//                       ^

import type { QueryErrorJson } from '../server/error-json.js';

export function renderFailure(queryId: string, sql: string, error: QueryErrorJson): string {
  let out = `Query ${queryId} failed: ${error.message}\n`;
  const location = error.errorLocation;
  if (location) {
    const lines = sql.split('\n');
    const line = lines[location.lineNumber - 1];
    if (line !== undefined) {
      const prefix = `LINE ${location.lineNumber}: `;
      out += `${prefix}${line}\n${' '.repeat(prefix.length + location.columnNumber - 1)}^\n`;
    }
  }
  return out;
}
