// Where `engine node` on this machine finds the secret a local `engine cluster` generated, so that
// `engine node drain --server <a worker>` works against it with no setup: the cluster writes
// ~/.engine/clusters/<coordinator port>.json (directory 0700, file 0600) with the secret, its nodes'
// addresses and its own process id, and removes it when it stops. `engine node` uses the secret only
// for a node the file lists, and only while that process runs: a file a killed cluster left behind
// signs nothing.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { processExists } from './node-drain.js';

export interface ClusterSecret {
  /** The `engine cluster` process. */
  pid: number;
  secret: string;
  /** Each node's address, e.g. http://127.0.0.1:8080. */
  nodes: string[];
}

function directory(): string {
  return join(homedir(), '.engine', 'clusters');
}

/** Writes the file (replacing it at once) and returns its path. */
export function writeClusterSecret(coordinatorPort: number, cluster: ClusterSecret): string {
  mkdirSync(directory(), { recursive: true, mode: 0o700 });
  const path = join(directory(), `${coordinatorPort}.json`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(cluster)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return path;
}

export function removeClusterSecret(path: string): void {
  rmSync(path, { force: true });
}

/** The secret of the running local cluster that has the node at `server` (an origin), and the file it is in. */
export function findClusterSecret(server: string): { secret: string; path: string } | undefined {
  let names: string[];
  try {
    names = readdirSync(directory());
  } catch {
    return undefined;
  }
  const wanted = loopbackAlias(server);
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const path = join(directory(), name);
    const cluster = readCluster(path);
    if (cluster !== undefined && cluster.nodes.some((node) => loopbackAlias(node) === wanted) && processExists(cluster.pid))
      return { secret: cluster.secret, path };
  }
  return undefined;
}

function readCluster(path: string): ClusterSecret | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ClusterSecret>;
    if (typeof parsed.pid !== 'number' || typeof parsed.secret !== 'string' || !Array.isArray(parsed.nodes)) return undefined;
    return { pid: parsed.pid, secret: parsed.secret, nodes: parsed.nodes.map(String) };
  } catch {
    return undefined;
  }
}

/** localhost and 127.0.0.1 name the same node of a loopback cluster. */
function loopbackAlias(origin: string): string {
  return origin.replace(/^(https?:\/\/)localhost(?=:|$)/, '$1127.0.0.1');
}
