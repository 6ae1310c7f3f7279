// The rows of a TPC-H table at sf0.01 as dbgen wrote them (the shared reference data), each as its
// fields' text: an oracle independent of the engine for tests that read tpch.tiny.

import { readFileSync } from 'node:fs';
import { sharedPath } from '../../scripts/shared-dir.js';

export function dbgenRows(table: string): string[][] {
  return readFileSync(sharedPath('tpch', 'dbgen-sf0.01', `${table}.tbl`), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('|'));
}
