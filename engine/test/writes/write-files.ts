// What a write left in a folder: its files (hidden ones too, such as a file still being written),
// and the writers that named them.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below a folder, as paths relative to it. */
export function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** The table's data files (not the metastore's entry and commits, under hidden folders and names). */
export const dataFiles = (dir: string): string[] => filesBelow(dir).filter((f) => !f.split('/').some((s) => s.startsWith('.')));

/** Files a write is writing or wrote: data files, and hidden files being written (`.tmp-...`). */
export const writeFiles = (dir: string): string[] =>
  filesBelow(dir).filter((f) => !f.includes('.engine/') && !f.endsWith('.trinoSchema') && !f.endsWith('.trinoTable'));

/** The writers whose files these are: `<write id>_<writer>_<n>.<extension>`. */
export function writersOf(files: readonly string[]): Set<string> {
  return new Set(files.map((f) => /_w[0-9a-f]{12}_([0-9a-f]{8})_\d+\./.exec(f)?.[1] ?? `(not a writer's: ${f})`));
}
