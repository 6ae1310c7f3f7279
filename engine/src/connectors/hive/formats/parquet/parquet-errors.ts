// What is wrong with a Parquet file's bytes. Decoders throw these without knowing the file; the
// reader turns them into one EngineError naming the file (and the column where it knows it).

import { EngineError } from '../../../../errors/engine-error.js';
import { CodecError } from './snappy.js';
import { ThriftError } from './thrift-compact.js';

export class ParquetDataError extends Error {}

/** Runs `f`; a decoding failure becomes an error naming the file and what was being read. */
export async function namingFile<T>(location: string, what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw asFileError(e, location, what);
  }
}

export function asFileError(e: unknown, location: string, what: string): unknown {
  if (e instanceof ParquetDataError || e instanceof ThriftError || e instanceof CodecError || e instanceof RangeError) {
    return new EngineError('HIVE_BAD_DATA', `Corrupt Parquet file ${location}: ${what}: ${(e as Error).message}`);
  }
  return e;
}
