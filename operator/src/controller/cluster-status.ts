// The status the operator writes (no I/O here): worker counts, one entry per node, the conditions
// Available / Progressing / Degraded with reasons (a Secret a catalog needs that is missing makes it
// Degraded: SecretMissing), and the one-word state the printer column shows.
// A condition keeps its lastTransitionTime while its status stays the same.
import type { Condition, ConditionType, EngineClusterStatus, NodeStatusEntry } from '../api/engine-cluster.js';
import type { NodeStatus } from '../engine/node-client.js';
import type { WorkerPlan } from './worker-plan.js';
import { isReady, type WorkerView } from './worker-view.js';

export interface CoordinatorView {
  pod?: { name: string; running: boolean; waitingReason?: string; restarts: number };
  engine?: NodeStatus;
}

export interface StatusInput {
  previous: EngineClusterStatus | undefined;
  generation: number;
  desired: number;
  templateHash: string;
  workers: WorkerView[];
  plan: WorkerPlan | undefined;
  coordinator: CoordinatorView;
  coordinatorURL: string;
  selector: string;
  /** What is wrong with the spec (nothing was done then). */
  problems: string[];
  /** Secrets or keys the catalogs' properties name that do not exist (the pods cannot start). */
  missingSecrets: string[];
  now: Date;
}

function nodeState(w: WorkerView): string {
  if (w.deleting) return 'Terminating';
  if (w.engine) return w.engine.state;
  if (w.waitingReason) return w.waitingReason;
  if (w.exited) return 'Exited';
  return w.running ? 'Starting' : 'Pending';
}

function condition(type: ConditionType, status: boolean, reason: string, message: string, input: StatusInput): Condition {
  const before = input.previous?.conditions?.find((c) => c.type === type);
  const value = status ? 'True' : 'False';
  const lastTransitionTime = before && before.status === value ? before.lastTransitionTime : input.now.toISOString();
  return { type, status: value, reason, message, observedGeneration: input.generation, lastTransitionTime };
}

function listNames(workers: WorkerView[]): string {
  return workers.map((w) => w.name).join(', ');
}

export function clusterStatus(input: StatusInput): EngineClusterStatus {
  const plan = input.plan;
  const live = input.workers.filter((w) => !w.deleting);
  const serving = live.filter((w) => !w.drain);
  const ready = serving.filter(isReady).length;
  const outdated = serving.filter((w) => w.templateHash !== input.templateHash);
  const cancelled = new Set(plan?.cancelDrain.map((w) => w.name));
  const draining = live.filter((w) => w.drain && !w.exited && !cancelled.has(w.name)).length + (plan?.drain.length ?? 0);
  const updated = serving.filter((w) => w.templateHash === input.templateHash).length;
  const coordinatorActive = input.coordinator.engine?.state === 'ACTIVE';

  const available = coordinatorActive && (ready > 0 || input.desired === 0);
  const availableCondition = available
    ? condition(
        'Available',
        true,
        'CoordinatorAndWorkersReady',
        `the coordinator is ACTIVE and ${ready} of ${input.desired} workers are ready`,
        input,
      )
    : !coordinatorActive
      ? condition(
          'Available',
          false,
          'CoordinatorUnavailable',
          input.coordinator.engine ? `the coordinator is ${input.coordinator.engine.state}` : 'the coordinator does not answer yet',
          input,
        )
      : condition('Available', false, 'NoWorkerReady', `none of ${input.desired} workers is ready`, input);

  let progressing: Condition;
  if (input.problems.length) progressing = condition('Progressing', false, 'InvalidSpec', 'nothing is done until the spec is fixed', input);
  else if (outdated.length)
    progressing = condition(
      'Progressing',
      true,
      'RollingUpdate',
      `${outdated.length} workers run an outdated template; ${updated} are up to date`,
      input,
    );
  else if (draining > 0) progressing = condition('Progressing', true, 'ScalingIn', `draining ${draining} workers`, input);
  else if (ready < input.desired)
    progressing = condition('Progressing', true, 'ScalingOut', `${ready} of ${input.desired} workers ready`, input);
  else if (!coordinatorActive) progressing = condition('Progressing', true, 'CoordinatorStarting', 'waiting for the coordinator', input);
  else progressing = condition('Progressing', false, 'Stable', `${ready} workers ready`, input);

  const crashLooping = live.filter((w) => w.waitingReason === 'CrashLoopBackOff');
  const timedOut = (plan?.remove ?? []).filter((r) => r.reason === 'DrainTimedOut').map((r) => r.worker);
  const drainedCleanly = (plan?.remove ?? []).some((r) => r.reason === 'Drained');
  const previousDegraded = input.previous?.conditions?.find((c) => c.type === 'Degraded');
  let degraded: Condition;
  if (input.problems.length) degraded = condition('Degraded', true, 'InvalidSpec', input.problems.join('; '), input);
  else if (input.missingSecrets.length) degraded = condition('Degraded', true, 'SecretMissing', input.missingSecrets.join('; '), input);
  else if (input.coordinator.pod?.waitingReason === 'CrashLoopBackOff')
    degraded = condition(
      'Degraded',
      true,
      'CoordinatorCrashLoop',
      `the coordinator pod ${input.coordinator.pod.name} is in CrashLoopBackOff`,
      input,
    );
  else if (crashLooping.length)
    degraded = condition('Degraded', true, 'WorkerCrashLoop', `worker pods in CrashLoopBackOff: ${listNames(crashLooping)}`, input);
  else if (timedOut.length)
    degraded = condition(
      'Degraded',
      true,
      'DrainTimedOut',
      `the drain of ${listNames(timedOut)} passed its timeout: deleted with its work`,
      input,
    );
  else if (previousDegraded?.status === 'True' && previousDegraded.reason === 'DrainTimedOut' && !drainedCleanly)
    degraded = previousDegraded;
  else degraded = condition('Degraded', false, 'AsExpected', '', input);

  const nodes: NodeStatusEntry[] = [];
  const c = input.coordinator;
  if (c.pod)
    nodes.push({
      pod: c.pod.name,
      nodeId: c.engine?.nodeId ?? c.pod.name,
      role: 'coordinator',
      state: c.engine?.state ?? c.pod.waitingReason ?? (c.pod.running ? 'Starting' : 'Pending'),
      runningTasks: c.engine?.workload.runningTasks ?? 0,
      restarts: c.pod.restarts,
    });
  for (const w of [...input.workers].sort((a, b) => a.name.localeCompare(b.name)))
    nodes.push({
      pod: w.name,
      nodeId: w.engine?.nodeId ?? w.name,
      role: 'worker',
      state: nodeState(w),
      runningTasks: w.engine?.workload.runningTasks ?? 0,
      restarts: w.restarts,
    });

  const state =
    degraded.status === 'True' ? 'Degraded' : !available ? 'Pending' : progressing.status === 'True' ? 'Progressing' : 'Available';
  return {
    observedGeneration: input.generation,
    state,
    coordinatorURL: input.coordinatorURL,
    selector: input.selector,
    workers: { desired: input.desired, ready, draining, updated },
    nodes,
    conditions: [availableCondition, progressing, degraded],
  };
}
