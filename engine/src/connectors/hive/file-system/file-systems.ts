// The file systems of a lake catalog, by the scheme of a location: `file` (a local folder) and `s3`
// (any S3-compatible store). Each is made from the catalog's properties, which are plain data, so
// that a worker thread makes the same file systems from the same properties. Adding a file system is
// one line in FILE_SYSTEMS.

import { EngineError } from '../../../errors/engine-error.js';
import { schemeOf } from '../location.js';
import type { FileSystem } from './file-system.js';
import { LocalFileSystem } from './local-file-system.js';
import { S3FileSystem } from './s3-file-system.js';
import { s3Config } from './s3/s3-config.js';
import { RequestSlots } from './s3/request-slots.js';

/** The catalog's file system properties (`fs.*`, `s3.*`), as text. */
export type FileSystemProperties = Readonly<Record<string, string>>;

export type FileSystemFactory = (properties: FileSystemProperties, catalog: string, shared: SharedLimits) => FileSystem;

/** What the file systems of one catalog share across the threads of a node: plain data on shared memory. */
export interface SharedLimits {
  /** Free S3 request slots of the node (s3.max-connections). */
  s3Requests?: Int32Array;
}

const FILE_SYSTEMS: Readonly<Record<string, FileSystemFactory>> = {
  file: () => new LocalFileSystem(),
  // The properties were checked when the catalog was configured (hive-config.ts).
  s3: (properties, catalog, shared) => {
    const config = s3Config(catalog, properties);
    return new S3FileSystem(config, new RequestSlots(shared.s3Requests ?? RequestSlots.shared(config.maxConnections)));
  },
};

/** Trino's switch for its native S3 file system: s3:// locations need it. */
export const NATIVE_S3_ENABLED = 'fs.native-s3.enabled';

export class FileSystems {
  private readonly made = new Map<string, FileSystem>();

  constructor(
    /** The catalog, for messages. */
    private readonly catalog: string,
    readonly properties: FileSystemProperties,
    /** Shared with the node's other threads: the connector hands it to the worker splits. */
    readonly shared: SharedLimits = FileSystems.sharedLimits(catalog, properties),
  ) {}

  /** A node's limits for the catalog: made once, by its connector. */
  static sharedLimits(catalog: string, properties: FileSystemProperties): SharedLimits {
    return properties[NATIVE_S3_ENABLED] === 'true'
      ? { s3Requests: RequestSlots.shared(s3Config(catalog, properties).maxConnections) }
      : {};
  }

  /** The file system that holds `location`; fails naming it when no file system serves its scheme. */
  forLocation(location: string): FileSystem {
    const scheme = schemeOf(location);
    let fs = this.made.get(scheme);
    if (fs === undefined) {
      if ((scheme === 's3' || scheme === 's3a' || scheme === 's3n') && this.properties[NATIVE_S3_ENABLED] !== 'true') {
        throw new EngineError(
          'HIVE_FILESYSTEM_ERROR',
          `Location ${location}: s3:// locations need ${NATIVE_S3_ENABLED}=true in catalog '${this.catalog}'`,
        );
      }
      const factory = FILE_SYSTEMS[scheme === 's3a' || scheme === 's3n' ? 's3' : scheme];
      if (factory === undefined)
        throw new EngineError(
          'NOT_SUPPORTED',
          `Location ${location}: ${scheme}:// locations are not supported (supported: ${Object.keys(FILE_SYSTEMS)
            .map((s) => `${s}://`)
            .join(', ')})`,
        );
      fs = factory(this.properties, this.catalog, this.shared);
      this.made.set(scheme, fs);
    }
    return fs;
  }
}
