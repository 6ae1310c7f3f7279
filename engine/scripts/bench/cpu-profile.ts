// Where a process's CPU time went, from a V8 CPU profile (the .cpuprofile that `node --cpu-prof`
// writes, or one taken in this process through the inspector): the functions with the most self
// time (samples whose top frame they are), with their share of the profile's sampled time.

import { Session } from 'node:inspector/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of V8's Profiler.Profile read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
  /** Microseconds of the monotonic clock (process.hrtime's) when profiling started. */
  startTime?: number;
}

/** Whether each sample was taken at or after `fromMicros` (the monotonic clock's microseconds); all when undefined, or when the profile has no start (merged threads). */
function samplesFrom(profile: CpuProfile, fromMicros: number | undefined): boolean[] {
  const deltas = profile.timeDeltas ?? [];
  const start = profile.startTime;
  let at = start ?? 0;
  return (profile.samples ?? []).map((_, i) => {
    at += deltas[i] ?? 0;
    return fromMicros === undefined || start === undefined || at >= fromMicros;
  });
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
  fromMicros?: number,
): { sampledMillis: number; idleMillis: number; leftOutMillis: number; costs: ProfileCost[] } {
  const counted = samplesFrom(profile, fromMicros);
  const frameOfNode = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const selfMicros = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let sampledMicros = 0;
  let idleMicros = 0;
  let leftOutMicros = 0;
  for (let i = 0; i < samples.length; i++) {
    if (!counted[i]) continue;
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

/**
 * The `top` frames of `ours` (e.g. the engine's own files) by the time charged to them: each sample
 * goes to its nearest frame of `ours`, itself or the closest caller, so the time of libraries and
 * Node's internals (HTTP clients, streams, the garbage collector excepted) goes to the engine code
 * that called them. Idle time and samples with no frame of `ours` are counted apart.
 */
export function topCostsByOwnCaller(
  profile: CpuProfile,
  top: number,
  ours: RegExp,
  fromMicros?: number,
): { sampledMillis: number; unattributedMillis: number; costs: ProfileCost[] } {
  const counted = samplesFrom(profile, fromMicros);
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const owner = new Map<number, string | undefined>();
  const ownerOf = (id: number): string | undefined => {
    if (owner.has(id)) return owner.get(id);
    const node = byId.get(id);
    let found: string | undefined;
    if (node !== undefined) {
      if (ours.test(node.callFrame.url)) found = frameName(node.callFrame);
      else {
        const up = parent.get(id);
        found = up === undefined ? undefined : ownerOf(up);
      }
    }
    owner.set(id, found);
    return found;
  };
  const micros = new Map<string, number>();
  let sampledMicros = 0;
  let unattributedMicros = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    if (!counted[i]) continue;
    const node = byId.get(samples[i]);
    const name = node === undefined ? '(unknown)' : frameName(node.callFrame);
    if (name === '(idle)') continue;
    const delta = Math.max(0, deltas[i] ?? 0);
    sampledMicros += delta;
    const frame = ownerOf(samples[i]);
    if (frame === undefined) unattributedMicros += delta;
    else micros.set(frame, (micros.get(frame) ?? 0) + delta);
  }
  const costs = [...micros]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, m]) => ({ frame, selfMillis: m / 1000, share: sampledMicros > 0 ? m / sampledMicros : 0 }));
  return { sampledMillis: sampledMicros / 1000, unattributedMillis: unattributedMicros / 1000, costs };
}

/** Several threads' profiles as one (their node ids made distinct). */
export function mergeProfiles(profiles: readonly CpuProfile[]): CpuProfile {
  const merged: Required<Omit<CpuProfile, 'startTime'>> = { nodes: [], samples: [], timeDeltas: [] };
  let offset = 0;
  for (const p of profiles) {
    let largest = 0;
    for (const n of p.nodes) {
      merged.nodes.push({ id: n.id + offset, callFrame: n.callFrame, children: n.children?.map((c) => c + offset) });
      largest = Math.max(largest, n.id);
    }
    merged.samples.push(...(p.samples ?? []).map((id) => id + offset));
    merged.timeDeltas.push(...(p.timeDeltas ?? []));
    offset += largest + 1;
  }
  return merged;
}

export function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
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
