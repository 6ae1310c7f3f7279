// The main thread's longest busy stretches in a V8 CPU profile (`node --cpu-prof`, see
// ENGINE_BENCH_CLUSTER_NODE_ARGS for a cluster bench's nodes): each run of samples without an idle
// one between, longest first, with its frames of most self time and the engine's own frames it
// spent most time under (inclusive). What a stretch is not: one task. Turns of the event loop that
// find work ready leave no idle sample between them, and on a loaded machine the time the thread
// waited for a core is charged to whatever frame it was in (often a syscall); read the long-task
// log (ENGINE_LONG_TASK_MILLIS) beside it for single operator stretches.
//
//   node engine/dist/scripts/bench/profile-stretches.js PROFILE [MIN_MILLIS] [COUNT]

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { frameName, type CpuProfile } from './cpu-profile.js';

/** A .cpuprofile as written: its nodes' children (the call tree) and its start time are read here too. */
export interface CallTreeProfile extends CpuProfile {
  nodes: (CpuProfile['nodes'][number] & { children?: number[] })[];
}

export interface FrameTime {
  frame: string;
  millis: number;
}

export interface BusyStretch {
  /** From the profile's first sample. */
  startMillis: number;
  millis: number;
  self: FrameTime[];
  /** Frames of the engine's own code (dist/src), each counted once per sample under it. */
  engine: FrameTime[];
}

const ENGINE_CODE = '/dist/src/';

export function busyStretches(profile: CallTreeProfile, minMillis: number, frames = 6): BusyStretch[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const samples = profile.samples ?? [];
  // A sample's delta is the time since the one before, charged to its frame (as topSelfCosts does).
  const micros = (i: number): number => Math.max(0, profile.timeDeltas?.[i] ?? 0);
  const stretches: BusyStretch[] = [];
  let run: { startMicros: number; micros: number; self: Map<string, number>; engine: Map<string, number> } | undefined;
  let elapsed = 0;
  const close = (): void => {
    if (run !== undefined && run.micros / 1000 >= minMillis)
      stretches.push({
        startMillis: run.startMicros / 1000,
        millis: run.micros / 1000,
        self: largest(run.self, frames),
        engine: largest(run.engine, frames),
      });
    run = undefined;
  };
  for (let i = 0; i < samples.length; i++) {
    const time = micros(i);
    const top = byId.get(samples[i]);
    elapsed += time;
    if (top === undefined || top.callFrame.functionName === '(idle)') {
      close();
      continue;
    }
    run ??= { startMicros: elapsed - time, micros: 0, self: new Map(), engine: new Map() };
    run.micros += time;
    add(run.self, frameName(top.callFrame), time);
    const seen = new Set<string>();
    for (let id: number | undefined = top.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const name = frameName(frame);
      if (!frame.url.includes(ENGINE_CODE) || seen.has(name)) continue;
      seen.add(name);
      add(run.engine, name, time);
    }
  }
  close();
  return stretches.sort((a, b) => b.millis - a.millis);
}

function add(times: Map<string, number>, frame: string, micros: number): void {
  times.set(frame, (times.get(frame) ?? 0) + micros);
}

function largest(times: Map<string, number>, count: number): FrameTime[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, micros]) => ({ frame, millis: micros / 1000 }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, min, count] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: profile-stretches.js PROFILE [MIN_MILLIS] [COUNT]');
  const stretches = busyStretches(JSON.parse(readFileSync(file, 'utf8')) as CallTreeProfile, Number(min ?? 100));
  console.log(`${stretches.length} busy stretches of at least ${min ?? 100} ms`);
  for (const s of stretches.slice(0, Number(count ?? 15))) {
    console.log(`\n${s.millis.toFixed(0)} ms at +${(s.startMillis / 1000).toFixed(2)} s`);
    for (const f of s.self) console.log(`  self ${f.millis.toFixed(0).padStart(6)}  ${f.frame}`);
    for (const f of s.engine) console.log(`  in   ${f.millis.toFixed(0).padStart(6)}  ${f.frame}`);
  }
}
