// The lake's local file system, counting the ranged reads it serves (the Parquet tests check how
// many requests a read makes).

import { LocalFileSystem } from '../../../../src/connectors/hive/file-system/local-file-system.js';

export class TestFileSystem extends LocalFileSystem {
  readRequests = 0;

  override async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    this.readRequests++;
    return super.readRange(location, offset, length);
  }
}
