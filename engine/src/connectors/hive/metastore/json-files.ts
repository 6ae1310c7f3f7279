// The metastore's small JSON files: read whole, written whole.

import { EngineError } from '../../../errors/engine-error.js';
import type { FileSystem } from '../file-system/file-system.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The parsed file, or undefined when there is none; a file that is not JSON fails naming it. */
export async function readJson<T>(fs: FileSystem, location: string): Promise<T | undefined> {
  const entry = await fs.stat(location);
  if (entry === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await fs.readRange(location, 0, entry.size);
  } catch (e) {
    // Deleted between the two calls (a concurrent DROP): as if it never was.
    if (e instanceof EngineError && e.errorName === 'HIVE_FILE_NOT_FOUND') return undefined;
    throw e;
  }
  try {
    return JSON.parse(decoder.decode(bytes)) as T;
  } catch (e) {
    throw new EngineError('HIVE_INVALID_METADATA', `${location}: not valid JSON (${(e as Error).message})`);
  }
}

/** Writes the file whole, replacing one at the location (a failed write is aborted). */
export async function overwriteFile(fs: FileSystem, file: string, bytes: Uint8Array): Promise<void> {
  const out = await fs.create(file);
  try {
    await out.write(bytes);
    await out.close();
  } catch (e) {
    await out.abort();
    throw e;
  }
}

export function toJsonBytes(value: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify(value, null, 2)}\n`);
}
