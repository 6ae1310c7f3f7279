// What to do with the workers, decided from what they are now (no I/O: the reconciler carries it out).
//   - A drained worker whose process exited is deleted; a drain past its timeout is cut short.
//   - A worker that exited without being drained (or was evicted) is deleted, and so replaced.
//   - Too few workers of the current template: drains of current workers not yet shutting down are
//     called off first (the node goes back to ACTIVE), then new pods are made; while outdated workers
//     remain, one pod more than asked for may exist (the rollout's surge).
//   - Too many: outdated workers go first, then current ones beyond the count; among them those that
//     never started (deleted at once), then those not ready, then the least busy (running tasks, then
//     splits, then queries). A ready worker is drained only while the ready ones left still number
//     the count asked for, so a rollout drains an old worker only once a new one is ready.
import { neverStarted, isReady, type WorkerView } from './worker-view.js';
import type { DrainReason } from './drain-record.js';

export type RemovalReason = 'Drained' | 'DrainTimedOut' | 'Exited' | 'NeverStarted';

export interface WorkerPlan {
  create: number;
  remove: { worker: WorkerView; reason: RemovalReason }[];
  drain: { worker: WorkerView; reason: DrainReason }[];
  cancelDrain: WorkerView[];
  /** Drains under way, to move along. */
  continueDrain: WorkerView[];
}

export interface PlanInput {
  workers: WorkerView[];
  desired: number;
  templateHash: string;
  now: number;
  drainTimeoutMs: number;
}

function load(w: WorkerView): number[] {
  const l = w.engine?.workload ?? {};
  return [l.runningTasks ?? 0, (l.runningSplits ?? 0) + (l.queuedSplits ?? 0), (l.runningQueries ?? 0) + (l.queuedQueries ?? 0)];
}

function compareLoad(a: WorkerView, b: WorkerView): number {
  const la = load(a);
  const lb = load(b);
  for (let i = 0; i < la.length; i++) if (la[i] !== lb[i]) return la[i] - lb[i];
  return 0;
}

/** The order in which workers are picked to go: never started, then not ready, then least busy, then youngest. */
export function removalOrder(workers: WorkerView[]): WorkerView[] {
  const rank = (w: WorkerView) => (neverStarted(w) ? 0 : isReady(w) ? 2 : 1);
  return [...workers].sort((a, b) => rank(a) - rank(b) || compareLoad(a, b) || b.createdAt - a.createdAt || a.name.localeCompare(b.name));
}

export function planWorkers(input: PlanInput): WorkerPlan {
  const plan: WorkerPlan = { create: 0, remove: [], drain: [], cancelDrain: [], continueDrain: [] };
  const serving: WorkerView[] = [];
  const draining: WorkerView[] = [];
  for (const w of input.workers) {
    if (w.deleting) continue;
    if (w.drain) {
      if (w.exited) plan.remove.push({ worker: w, reason: 'Drained' });
      else if (input.now - Date.parse(w.drain.startedAt) > input.drainTimeoutMs) plan.remove.push({ worker: w, reason: 'DrainTimedOut' });
      else draining.push(w);
    } else if (w.exited) plan.remove.push({ worker: w, reason: 'Exited' });
    else serving.push(w);
  }
  const current = serving.filter((w) => w.templateHash === input.templateHash);
  const outdated = serving.filter((w) => w.templateHash !== input.templateHash);

  let missing = input.desired - current.length;
  if (missing > 0) {
    const back = draining
      .filter((w) => w.templateHash === input.templateHash && w.drain!.phase === 'Isolating' && w.engine !== undefined)
      .slice(0, missing);
    plan.cancelDrain = back;
    missing -= back.length;
    const room = input.desired + (outdated.length > 0 ? 1 : 0) - serving.length - back.length;
    plan.create = Math.max(0, Math.min(missing, room));
  }
  plan.continueDrain = draining.filter((w) => !plan.cancelDrain.includes(w));

  const surplusCurrent = Math.max(0, current.length + plan.cancelDrain.length - input.desired);
  const candidates = [...removalOrder(outdated), ...removalOrder(current).slice(0, surplusCurrent)];
  let ready = serving.filter(isReady).length;
  for (const w of candidates) {
    const reason: DrainReason = w.templateHash === input.templateHash ? 'ScaleIn' : 'Rollout';
    if (neverStarted(w)) plan.remove.push({ worker: w, reason: 'NeverStarted' });
    else if (!isReady(w)) plan.drain.push({ worker: w, reason });
    else if (ready - 1 >= input.desired) {
      plan.drain.push({ worker: w, reason });
      ready--;
    }
  }
  return plan;
}
