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

/**
 * The `top` frames by self time, and the profile's sampled time: idle time (the thread waiting) and
 * frames matching `leaveOut` are counted apart, not among the costs and their shares.
 */
export function topSelfCosts(
  profile: CpuProfile,
  top: number,
  leaveOut?: RegExp,
): { sampledMillis: number; idleMillis: number; leftOutMillis: number; costs: ProfileCost[] } {
  const frameOfNode = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const selfMicros = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let sampledMicros = 0;
  let idleMicros = 0;
  let leftOutMicros = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample's delta is the time since the one before: it is charged to this sample's frame.
    const micros = Math.max(0, deltas[i] ?? 0);
    const frame = frameOfNode.get(samples[i]) ?? '(unknown)';
    if (frame === '(idle)') idleMicros += micros;
    else if (leaveOut?.test(frame)) leftOutMicros += micros;
    else {
      selfMicros.set(frame, (selfMicros.get(frame) ?? 0) + micros);
      sampledMicros += micros;
    }
  }
  const costs = [...selfMicros]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, micros]) => ({ frame, selfMillis: micros / 1000, share: sampledMicros > 0 ? micros / sampledMicros : 0 }));
  return { sampledMillis: sampledMicros / 1000, idleMillis: idleMicros / 1000, leftOutMillis: leftOutMicros / 1000, costs };
}

/** Several threads' profiles as one (their node ids made distinct). */
export function mergeProfiles(profiles: readonly CpuProfile[]): CpuProfile {
  const merged: Required<CpuProfile> = { nodes: [], samples: [], timeDeltas: [] };
  let offset = 0;
  for (const p of profiles) {
    let largest = 0;
    for (const n of p.nodes) {
      merged.nodes.push({ id: n.id + offset, callFrame: n.callFrame });
      largest = Math.max(largest, n.id);
    }
    merged.samples.push(...(p.samples ?? []).map((id) => id + offset));
    merged.timeDeltas.push(...(p.timeDeltas ?? []));
    offset += largest + 1;
  }
  return merged;
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const dist = frame.url.lastIndexOf('/dist/');
  const file = dist >= 0 ? frame.url.slice(dist + '/dist/'.length) : frame.url.replace(/^.*\/node_modules\//, '');
  return `${name} (${file}:${frame.lineNumber + 1})`;
}

/**
 * The profiles `node --cpu-prof --cpu-prof-dir dir` wrote at exit, one per thread: the main thread's
 * (thread id 0 in CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile) and the others'.
 */
export function readThreadProfiles(dir: string): { mainThread: CpuProfile | undefined; otherThreads: CpuProfile[] } {
  let mainThread: CpuProfile | undefined;
  const otherThreads: CpuProfile[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    if (file.split('.')[4] === '0') mainThread = profile;
    else otherThreads.push(profile);
  }
  return { mainThread, otherThreads };
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
