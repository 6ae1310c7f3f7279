// Where a process's CPU time went, from a V8 CPU profile (the .cpuprofile that `node --cpu-prof`
// writes, or one taken in this process through the inspector): the functions with the most self
// time (samples whose top frame they are), with their share of the profile's sampled time.

import { Session } from 'node:inspector/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of V8's Profiler.Profile read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileCost {
  /** "function (file:line)", the file relative to the engine's dist folder where it is in it. */
  frame: string;
  selfMillis: number;
  /** Of the profile's sampled time. */
  share: number;
}

/** The `top` frames by self time, and the profile's sampled time. */
export function topSelfCosts(profile: CpuProfile, top: number): { sampledMillis: number; costs: ProfileCost[] } {
  const frameOfNode = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const selfMicros = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let sampledMicros = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample's delta is the time since the one before: it is charged to this sample's frame.
    const micros = Math.max(0, deltas[i] ?? 0);
    const frame = frameOfNode.get(samples[i]) ?? '(unknown)';
    selfMicros.set(frame, (selfMicros.get(frame) ?? 0) + micros);
    sampledMicros += micros;
  }
  const costs = [...selfMicros]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, micros]) => ({ frame, selfMillis: micros / 1000, share: sampledMicros > 0 ? micros / sampledMicros : 0 }));
  return { sampledMillis: sampledMicros / 1000, costs };
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const dist = frame.url.lastIndexOf('/dist/');
  const file = dist >= 0 ? frame.url.slice(dist + '/dist/'.length) : frame.url.replace(/^.*\/node_modules\//, '');
  return `${name} (${file}:${frame.lineNumber + 1})`;
}

/** The newest .cpuprofile in `dir` (what `node --cpu-prof --cpu-prof-dir dir` wrote at exit). */
export function readNewestProfile(dir: string): CpuProfile | undefined {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  const newest = files[files.length - 1];
  return newest === undefined ? undefined : (JSON.parse(readFileSync(join(dir, newest), 'utf8')) as CpuProfile);
}

/** Runs `work` while this process's CPU is profiled. */
export async function profileThisProcess<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: profile as CpuProfile };
  } finally {
    session.disconnect();
  }
}
