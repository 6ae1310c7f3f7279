// A cluster whose nodes share a lake catalog in a temporary directory: the directory and its
// config file are made before the enclosing describe's tests and removed after the cluster stopped.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lakeConfigFile } from '../connectors/lake/lake-fixture.js';
import { type RunningCluster, withCluster } from './cluster-fixture.js';

export interface LakeCluster {
  readonly cluster: RunningCluster;
  /** The temporary directory; the lake catalog's tables are below `catalog/`. */
  readonly dir: string;
}

/** `extraCatalogs` (YAML entries of `catalogs:`) is read in the before hook, after the hooks declared earlier ran. */
export function withLakeCluster(workerCount: number, prefix: string, extraCatalogs: () => string = () => ''): LakeCluster {
  let dir: string | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  const cluster = withCluster(workerCount, () => {
    if (dir === undefined) throw new Error('the directory is made in a before hook');
    return { config: lakeConfigFile(dir, join(dir, 'catalog'), extraCatalogs()) };
  });
  after(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return {
    cluster,
    get dir() {
      if (dir === undefined) throw new Error('the directory is made in a before hook');
      return dir;
    },
  };
}
