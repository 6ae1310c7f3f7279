// The drain of a worker, kept in an annotation of its pod so that an operator restarted mid-drain
// picks it up where it was: when it began (for the timeout), why, and whether the node was told to
// shut down yet.
import type { V1Pod } from '@kubernetes/client-node';
import { annotations } from '../api/names.js';

export type DrainReason = 'ScaleIn' | 'Rollout';
export type DrainPhase = 'Isolating' | 'ShuttingDown';

export interface DrainRecord {
  startedAt: string;
  reason: DrainReason;
  phase: DrainPhase;
}

export function readDrainRecord(pod: V1Pod): DrainRecord | undefined {
  const text = pod.metadata?.annotations?.[annotations.drain];
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<DrainRecord>;
    if (typeof parsed.startedAt !== 'string' || Number.isNaN(Date.parse(parsed.startedAt))) return undefined;
    return {
      startedAt: parsed.startedAt,
      reason: parsed.reason === 'Rollout' ? 'Rollout' : 'ScaleIn',
      phase: parsed.phase === 'ShuttingDown' ? 'ShuttingDown' : 'Isolating',
    };
  } catch {
    return undefined;
  }
}

/** The merge patch that records (or, with null, clears) a pod's drain. */
export function drainPatch(record: DrainRecord | null): { metadata: { annotations: Record<string, string | null> } } {
  return { metadata: { annotations: { [annotations.drain]: record ? JSON.stringify(record) : null } } };
}
