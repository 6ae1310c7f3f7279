// Worker views as the reconciler builds them from pods and node answers, for the planning tests.
import type { NodeWorkload } from '../../src/engine/node-client.js';
import type { DrainRecord } from '../../src/controller/drain-record.js';
import type { WorkerView } from '../../src/controller/worker-view.js';

/** When drains began unless a test says otherwise (the planning tests run at 1_000_000). */
export const drainStart = 990_000;

export interface ViewOptions {
  hash?: string;
  state?: string;
  listed?: boolean;
  running?: boolean;
  exited?: boolean;
  deleting?: boolean;
  drain?: Partial<DrainRecord>;
  workload?: Partial<NodeWorkload>;
  createdAt?: number;
  waitingReason?: string;
  answers?: boolean;
}

/** A worker; by default running, ACTIVE, listed by the coordinator, on template "h1", idle. */
export function worker(name: string, o: ViewOptions = {}): WorkerView {
  const answers = o.answers ?? o.running ?? true;
  return {
    name,
    pod: { metadata: { name, namespace: 'ns' } },
    templateHash: o.hash ?? 'h1',
    deleting: o.deleting ?? false,
    drain: o.drain ? { startedAt: new Date(drainStart).toISOString(), reason: 'ScaleIn', phase: 'Isolating', ...o.drain } : undefined,
    running: o.running ?? true,
    exited: o.exited ?? false,
    waitingReason: o.waitingReason,
    restarts: 0,
    uri: `http://10.0.0.${name.length}:8080`,
    engine: answers ? { nodeId: name, state: o.state ?? 'ACTIVE', workload: { runningTasks: 0, ...o.workload } } : undefined,
    listed: o.listed ?? true,
    createdAt: o.createdAt ?? 0,
  };
}
