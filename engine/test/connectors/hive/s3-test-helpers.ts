// Shared by the S3 file system's tests: a file system on an endpoint, errors caught, bytes made.

import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { EngineError } from '../../../src/errors/engine-error.js';
import type { FileEntry, FileSystem } from '../../../src/connectors/hive/file-system/file-system.js';
import { S3FileSystem } from '../../../src/connectors/hive/file-system/s3-file-system.js';
import { s3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';

/** An S3 file system on `endpoint` (path-style), from catalog properties as a user writes them. */
export function s3FileSystem(endpoint: string, properties: Record<string, string> = {}): S3FileSystem {
  return new S3FileSystem(
    s3Config('lake', { 's3.endpoint': endpoint, 's3.path-style-access': 'true', 's3.region': 'us-east-1', ...properties }, {}),
  );
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

export async function engineRejection(promise: Promise<unknown>): Promise<EngineError> {
  const error = await rejection(promise);
  expect(error, String(error)).to.be.instanceOf(EngineError);
  return error as EngineError;
}

export async function listAll(fs: FileSystem, directory: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for await (const entry of fs.listFiles(directory)) entries.push(entry);
  return entries;
}

export async function writeFile(fs: FileSystem, location: string, bytes: Uint8Array, chunkSize = bytes.length || 1): Promise<void> {
  const output = await fs.create(location);
  for (let at = 0; at < bytes.length; at += chunkSize) await output.write(bytes.subarray(at, at + chunkSize));
  await output.close();
}

export function bytes(length: number): Buffer {
  return randomBytes(length);
}

export const MIB = 1024 * 1024;
