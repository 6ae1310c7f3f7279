// `s3://bucket/key` locations: the bucket and the object key they name. `s3a://` and `s3n://`
// (Hadoop's spellings, which Trino also reads) name the same objects; a listing keeps the scheme
// it was asked with.

import { EngineError } from '../../../../errors/engine-error.js';

export interface S3Location {
  scheme: 's3' | 's3a' | 's3n';
  bucket: string;
  /** The object key, or the key prefix of a directory (ending in `/`; empty for the bucket's root). */
  key: string;
}

const LOCATION_PATTERN = /^(s3|s3a|s3n):\/\/([^/?#]+)(?:\/(.*))?$/s;

export function parseS3Location(location: string): S3Location {
  const match = LOCATION_PATTERN.exec(location);
  if (!match) {
    throw new EngineError('HIVE_FILESYSTEM_ERROR', `Invalid S3 location '${location}': expected s3://bucket/key`);
  }
  return { scheme: match[1] as S3Location['scheme'], bucket: match[2]!, key: match[3] ?? '' };
}

/** A directory's key prefix: its key with a trailing `/` (none for the bucket's root). */
export function directoryPrefix(directory: S3Location): string {
  return directory.key === '' || directory.key.endsWith('/') ? directory.key : `${directory.key}/`;
}

export function formatS3Location(scheme: S3Location['scheme'], bucket: string, key: string): string {
  return `${scheme}://${bucket}/${key}`;
}

/** An object's location must name a key, not a bucket or a directory. */
export function parseS3FileLocation(location: string): S3Location {
  const parsed = parseS3Location(location);
  if (parsed.key === '' || parsed.key.endsWith('/')) {
    throw new EngineError('HIVE_FILESYSTEM_ERROR', `S3 location '${location}' names a directory, not a file`);
  }
  return parsed;
}
