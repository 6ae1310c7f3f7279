// Reads lake splits in a worker thread: the split's descriptor carries the catalog's file system
// properties (plain data), from which the thread makes its own file systems once per catalog.

import type { PageSource, TableConstraint } from '../../../spi/connector.js';
import type { Session } from '../../../spi/session.js';
import type { SplitReader } from '../../../spi/worker-split.js';
import { FileSystems, type FileSystemProperties, type SharedLimits } from '../file-system/file-systems.js';
import type { LakeSplitInfo } from '../splits/lake-split.js';
import { lakePageSource } from './lake-page-source.js';

export const LAKE_SPLIT_READER = 'lake';

export interface LakeWorkerSplit {
  catalog: string;
  fileSystem: FileSystemProperties;
  /** The node's limits, on shared memory: every thread counts against the same ones. */
  shared: SharedLimits;
  info: LakeSplitInfo;
}

/** This thread's file systems, by catalog and properties. */
const fileSystems = new Map<string, FileSystems>();

export const lakeSplitReader: SplitReader = {
  open(data: unknown, columns: readonly string[], _session: Session, dynamicFilter?: TableConstraint): PageSource {
    const split = data as LakeWorkerSplit;
    const key = JSON.stringify([split.catalog, split.fileSystem]);
    let systems = fileSystems.get(key);
    if (systems === undefined) {
      systems = new FileSystems(split.catalog, split.fileSystem, split.shared);
      fileSystems.set(key, systems);
    }
    return lakePageSource(systems.forLocation(split.info.location), split.info, columns, dynamicFilter);
  },
};
