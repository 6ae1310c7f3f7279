// A Parquet file's footer: the file ends with the thrift-encoded FileMetaData, its length (4 bytes,
// little endian) and "PAR1". One read of the tail usually holds it all; a larger footer takes a
// second read.

import { EngineError } from '../../../../errors/engine-error.js';
import type { FileEntry, FileSystem } from '../../file-system/file-system.js';
import { decodeFileMetaData, type FileMetaData } from './file-metadata.js';
import { MAGIC } from './parquet-constants.js';
import { asFileError } from './parquet-errors.js';

const TAIL_READ = 64 * 1024;

export interface Footer {
  metadata: FileMetaData;
  /** Bytes read to get it. */
  bytesRead: number;
}

export async function readFooter(fs: FileSystem, file: FileEntry, signal?: AbortSignal): Promise<Footer> {
  const corrupt = (why: string) => new EngineError('HIVE_BAD_DATA', `Corrupt Parquet file ${file.location}: ${why}`);
  if (file.size < 12) throw corrupt(`${file.size} bytes is too small for a Parquet file`);
  const tailLength = Math.min(file.size, TAIL_READ);
  let tail = await fs.readRange(file.location, file.size - tailLength, tailLength, signal);
  let bytesRead = tail.length;
  if (tail.length < tailLength) throw corrupt(`the file is shorter than its listed size of ${file.size} bytes`);
  const end = tail.length;
  for (let i = 0; i < 4; i++) {
    if (tail[end - 4 + i] !== MAGIC[i])
      throw corrupt('it does not end with the Parquet magic bytes PAR1 (not a Parquet file, or truncated)');
  }
  const footerLength = (tail[end - 8] | (tail[end - 7] << 8) | (tail[end - 6] << 16) | (tail[end - 5] << 24)) >>> 0;
  if (footerLength + 12 > file.size) throw corrupt(`its footer length ${footerLength} exceeds the file`);
  if (footerLength + 8 > tail.length) {
    tail = await fs.readRange(file.location, file.size - footerLength - 8, footerLength + 8, signal);
    bytesRead += tail.length;
  }
  const footerBytes = tail.subarray(tail.length - 8 - footerLength, tail.length - 8);
  try {
    return { metadata: decodeFileMetaData(footerBytes), bytesRead };
  } catch (e) {
    throw asFileError(e, file.location, 'its footer cannot be decoded');
  }
}
