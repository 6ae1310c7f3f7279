// The shared corpora (TPC-H queries and reference data, sqllogictest) live in ../shared beside the
// repository root, wherever the repository is checked out; tests and scripts find them here.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** engine/dist/scripts -> the repository root. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A path under ../shared, relative to the repository root. */
export function sharedPath(...parts: string[]): string {
  return resolve(REPOSITORY_ROOT, '..', 'shared', ...parts);
}
