// The rss suite's table: per node memory and load, each node's peak and idle resident memory beside
// the limit the node holds its process to and the container size that holds it.

export interface NodeResidentFigures {
  peakBytes: number | undefined;
  idleBytes: number | undefined;
}

export interface RssFigures {
  nodeMemoryBytes: number;
  heapBytes: number;
  load: string;
  succeeded: number;
  failed: number;
  /** The error names of the failed queries, once each. */
  errors: string[];
  coordinator: NodeResidentFigures;
  worker: NodeResidentFigures;
  /** residentMemoryLimit of the settings (see memory-budget). */
  residentLimitBytes: number;
  /** containerMemoryBytes of the settings: what the operator gives the container. */
  containerBytes: number;
}

export interface RssRun {
  startedAt: string;
  scale: number;
  workerThreads: number;
  idleTimeoutMillis: number;
  figures: RssFigures[];
}

export function printRssRun(run: RssRun): void {
  const mb = (b: number | undefined) => (b === undefined ? '-' : String(Math.round(b / 2 ** 20)));
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(`\nresident memory (RSS, MB) per memory setting: a coordinator and one worker, each with the setting, tpch sf${run.scale},`);
  console.log(
    `${run.workerThreads} worker threads; idle = ${run.idleTimeoutMillis / 1000 + 5} s after the load (worker threads stop after ${run.idleTimeoutMillis / 1000} s without a task)`,
  );
  console.log(
    `${'node memory'.padEnd(12)}${pad('heap', 6)}  ${'load'.padEnd(13)}${pad('ok/failed', 10)}${pad('worker peak', 13)}${pad('worker idle', 13)}${pad('coord peak', 12)}${pad('coord idle', 12)}${pad('limit', 7)}${pad('container', 11)}`,
  );
  for (const f of run.figures) {
    console.log(
      `${`${mb(f.nodeMemoryBytes)}MB`.padEnd(12)}${pad(mb(f.heapBytes), 6)}  ${f.load.padEnd(13)}${pad(`${f.succeeded}/${f.failed}`, 10)}${pad(mb(f.worker.peakBytes), 13)}${pad(mb(f.worker.idleBytes), 13)}${pad(mb(f.coordinator.peakBytes), 12)}${pad(mb(f.coordinator.idleBytes), 12)}${pad(mb(f.residentLimitBytes), 7)}${pad(mb(f.containerBytes), 11)}`,
    );
  }
  const errors = [...new Set(run.figures.flatMap((f) => f.errors))];
  if (errors.length > 0) console.log(`failed queries: ${errors.join(', ')}`);
}
