// The PodStatus the kubelet reports, computed from its containers as the real kubelet does:
// phase (getPhase), the PodReadyToStartContainers / Initialized / ContainersReady / Ready
// conditions (with reasons and messages kubectl shows), and transition times kept while a
// condition's status does not change. Conditions the kubelet does not own (PodScheduled, readiness
// gates) are kept as they are.
import { now } from '../apiserver/names.js';
import type { JsonObject } from '../apiserver/types.js';
import type { PodSpec } from './pod-spec.js';

export interface PodStatusInput {
  previous: JsonObject;
  spec: PodSpec;
  init: JsonObject[];
  containers: JsonObject[];
  podIp?: string;
  hostIp: string;
  startTime?: string;
  /** The sandbox is up (pod IP assigned, volumes mounted). */
  sandboxReady: boolean;
}

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

interface StatusView {
  name: string;
  state: { waiting?: object; running?: object; terminated?: { exitCode: number } };
  lastState?: { terminated?: { exitCode: number } };
  ready: boolean;
}

function view(s: JsonObject): StatusView {
  return s as unknown as StatusView;
}

function phaseOf(input: PodStatusInput): Phase {
  const previous = input.previous.phase as Phase | undefined;
  if (previous === 'Succeeded' || previous === 'Failed') return previous;
  const policy = input.spec.restartPolicy ?? 'Always';
  for (const s of input.init.map(view)) {
    const t = s.state.terminated;
    if (t && t.exitCode === 0) continue;
    if (t && policy === 'Never') return 'Failed';
    return 'Pending';
  }
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const s of input.containers.map(view)) {
    if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.lastState?.terminated) {
      stopped++;
      if (s.lastState.terminated.exitCode === 0) succeeded++;
    } else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function condition(previous: JsonObject[], type: string, ok: boolean, reason?: string, message?: string): JsonObject {
  const old = previous.find((c) => c.type === type);
  const status = ok ? 'True' : 'False';
  const c: JsonObject = {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now(),
  };
  if (!ok && reason) c.reason = reason;
  if (!ok && message) c.message = message;
  return c;
}

const owned = new Set(['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready']);

export function computePodStatus(input: PodStatusInput): JsonObject {
  const previousConditions = (input.previous.conditions as JsonObject[] | undefined) ?? [];
  const phase = phaseOf(input);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const pendingInit = input.init
    .map(view)
    .filter((s) => s.state.terminated?.exitCode !== 0)
    .map((s) => s.name);
  const unready = input.containers
    .map(view)
    .filter((s) => !s.ready)
    .map((s) => s.name);
  const list = (names: string[]) => `[${names.join(' ')}]`;
  const containersReady = unready.length === 0 && !terminal;
  const gates = (input.spec.readinessGates ?? []).filter(
    (g) => !previousConditions.some((c) => c.type === g.conditionType && c.status === 'True'),
  );
  const readyReason = terminal ? 'PodCompleted' : unready.length ? 'ContainersNotReady' : 'ReadinessGatesNotReady';
  const readyMessage = terminal
    ? undefined
    : unready.length
      ? `containers with unready status: ${list(unready)}`
      : `corresponding condition of pod readiness gate ${JSON.stringify(gates[0]?.conditionType)} does not exist.`;
  const conditions = [
    condition(previousConditions, 'PodReadyToStartContainers', input.sandboxReady && !terminal),
    condition(
      previousConditions,
      'Initialized',
      pendingInit.length === 0 || phase === 'Succeeded',
      'ContainersNotInitialized',
      `containers with incomplete status: ${list(pendingInit)}`,
    ),
    condition(previousConditions, 'Ready', containersReady && gates.length === 0, readyReason, readyMessage),
    condition(
      previousConditions,
      'ContainersReady',
      containersReady,
      terminal ? 'PodCompleted' : 'ContainersNotReady',
      terminal ? undefined : `containers with unready status: ${list(unready)}`,
    ),
  ];
  const others = previousConditions.filter((c) => !owned.has(c.type as string));
  const status: JsonObject = {
    ...input.previous,
    phase,
    conditions: [...others.filter((c) => c.type === 'PodScheduled'), ...conditions, ...others.filter((c) => c.type !== 'PodScheduled')],
    hostIP: input.hostIp,
    hostIPs: [{ ip: input.hostIp }],
    containerStatuses: input.containers,
    qosClass: (input.previous.qosClass as string | undefined) ?? 'BestEffort',
  };
  if (input.init.length) status.initContainerStatuses = input.init;
  if (input.podIp) {
    status.podIP = input.podIp;
    status.podIPs = [{ ip: input.podIp }];
  }
  if (input.startTime) status.startTime = input.startTime;
  return status;
}
