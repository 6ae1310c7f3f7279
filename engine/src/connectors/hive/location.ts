// Locations are full URIs (`file:///data/orders/`, `s3://bucket/orders/part-0.csv`); a directory
// ends in `/`. These helpers join, split and compare them as strings, never through the local path
// module, so that one rule serves every file system.

import { EngineError } from '../../errors/engine-error.js';

/** The scheme of a location (`file`, `s3`), lower case; fails for text that is not a URI. */
export function schemeOf(location: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(location);
  if (match === null)
    throw new EngineError('INVALID_TABLE_PROPERTY', `Location '${location}' is not a URI (file:///path or s3://bucket/path)`);
  return match[1].toLowerCase();
}

/** The location as a directory: with a trailing `/`. */
export function asDirectory(location: string): string {
  return location.endsWith('/') ? location : `${location}/`;
}

/** A child of a directory: `name` may hold `/` (a relative path); a trailing `/` makes it a directory. */
export function childLocation(directory: string, name: string): string {
  return asDirectory(directory) + name;
}

/** The last segment of a location (a directory's without its trailing `/`). */
export function baseName(location: string): string {
  const trimmed = location.endsWith('/') ? location.slice(0, -1) : location;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The directory holding a location. */
export function parentLocation(location: string): string {
  const trimmed = location.endsWith('/') ? location.slice(0, -1) : location;
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
}

/** The path of `location` below `directory` (which must contain it). */
export function relativeLocation(directory: string, location: string): string {
  const dir = asDirectory(directory);
  if (!location.startsWith(dir)) throw new EngineError('GENERIC_INTERNAL_ERROR', `Location ${location} is not below ${dir}`);
  return location.slice(dir.length);
}

/**
 * Hive's hidden files: a file or folder whose name starts with `.` or `_` (metadata, commit logs,
 * Spark's _SUCCESS) is not data. `relativePath` is below the table's location.
 */
export function isHiddenPath(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.startsWith('.') || segment.startsWith('_'));
}
