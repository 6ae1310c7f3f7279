// The Deployment controller: one ReplicaSet per pod template (named by its pod-template-hash),
// rolling updates within maxSurge / maxUnavailable or Recreate, scaling, pause, revision history
// (revisionHistoryLimit), and the status kubectl rollout status and kubectl wait read:
// replicas / updatedReplicas / readyReplicas / availableReplicas / unavailableReplicas,
// observedGeneration, and the Available and Progressing conditions (with progressDeadlineSeconds).
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { structuredMatcher, type LabelSelector } from '../apiserver/selectors.js';
import { now } from '../apiserver/names.js';
import { EventRecorder } from '../cluster/events.js';
import { keyOf, kinds, splitKey, type Objects } from '../cluster/objects.js';
import { claim, controllerOf, controllerRef } from './owners.js';
import {
  desiredReplicasAnnotation,
  equalIgnoreHash,
  maxReplicasAnnotation,
  revisionAnnotation,
  revisionOf,
  rollingParams,
  templateHash,
  templateHashLabel,
} from './deployment-util.js';
import { WorkQueue } from './work-queue.js';

interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: JsonObject };
  strategy?: { type?: string };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  paused?: boolean;
}

interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

const specOf = (obj: KubeObject) => obj.spec as DeploymentSpec;
const replicasOf = (rs: KubeObject) => specOf(rs).replicas ?? 0;
const statusNumber = (rs: KubeObject, field: string) => (rs.status as Record<string, number> | undefined)?.[field] ?? 0;
const sum = (list: KubeObject[], f: (rs: KubeObject) => number) => list.reduce((n, rs) => n + f(rs), 0);
const byAge = (a: KubeObject, b: KubeObject) =>
  (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
  a.metadata.name!.localeCompare(b.metadata.name!);

export class DeploymentController {
  private readonly queue: WorkQueue;
  private readonly recorder: EventRecorder;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly objects: Objects) {
    this.recorder = new EventRecorder(objects, 'deployment-controller');
    this.queue = new WorkQueue(
      (key) => this.sync(key),
      () => undefined,
    );
  }

  start(): void {
    this.unsubscribe.push(this.objects.watch(kinds.deployments, (e) => this.queue.add(keyOf(e.object))));
    this.unsubscribe.push(this.objects.watch(kinds.replicaSets, (e) => this.replicaSetChanged(e.object)));
    this.unsubscribe.push(
      this.objects.watch(kinds.pods, (e) => {
        // Recreate waits for the old pods to be gone.
        if (e.type === 'DELETED')
          for (const d of this.objects.list(kinds.deployments, e.object.metadata.namespace))
            if (specOf(d).strategy?.type === 'Recreate') this.queue.add(keyOf(d));
      }),
    );
    for (const d of this.objects.list(kinds.deployments)) this.queue.add(keyOf(d));
  }

  private replicaSetChanged(rs: KubeObject): void {
    const ref = controllerOf(rs);
    if (ref?.kind === 'Deployment') return this.queue.add(`${rs.metadata.namespace}/${ref.name}`);
    if (ref) return;
    for (const d of this.objects.list(kinds.deployments, rs.metadata.namespace))
      if (structuredMatcher(specOf(d).selector)(rs.metadata.labels ?? {})) this.queue.add(keyOf(d));
  }

  /**
   * Sets a ReplicaSet's replicas (and the desired/max annotations) on its stored version; `rs`,
   * the caller's copy, follows, so later arithmetic in the same sync sees the new count.
   */
  private scale(rs: KubeObject, replicas: number, d: KubeObject, maxSurge: number): KubeObject {
    const dReplicas = specOf(d).replicas ?? 1;
    const stored = this.objects.get(kinds.replicaSets, rs.metadata.namespace, rs.metadata.name!);
    if (!stored) return rs;
    const annotations = {
      ...stored.metadata.annotations,
      [desiredReplicasAnnotation]: String(dReplicas),
      [maxReplicasAnnotation]: String(dReplicas + maxSurge),
    };
    const from = replicasOf(stored);
    (rs.spec as DeploymentSpec).replicas = replicas;
    if (from === replicas && JSON.stringify(annotations) === JSON.stringify(stored.metadata.annotations)) return stored;
    stored.metadata.annotations = annotations;
    (stored.spec as DeploymentSpec).replicas = replicas;
    const updated = this.objects.update(kinds.replicaSets, stored);
    if (from !== replicas)
      this.recorder.record(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${replicas}`,
      );
    return updated;
  }

  private sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const d = this.objects.get(kinds.deployments, namespace, name);
    if (!d || d.metadata.deletionTimestamp) return;
    const spec = specOf(d);
    const selector = spec.selector ?? {};
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions?.length ?? 0) === 0) return;
    const selects = structuredMatcher(selector);
    const owned = claim(this.objects, kinds.replicaSets, d, this.objects.list(kinds.replicaSets, namespace), (rs) =>
      selects(rs.metadata.labels ?? {}),
    );
    const params = rollingParams(d);
    let newRs = owned.find((rs) => equalIgnoreHash((rs.spec as DeploymentSpec).template, spec.template));
    let olds = owned.filter((rs) => rs !== newRs).sort(byAge);
    let progress: Omit<Condition, 'lastUpdateTime' | 'lastTransitionTime'> | undefined;
    if (!spec.paused) {
      const created = !newRs;
      newRs = this.ensureNewReplicaSet(
        d,
        newRs,
        olds,
        params.maxSurge,
        spec.strategy?.type === 'Recreate' && sum(olds, replicasOf) > 0 ? 0 : undefined,
      );
      if (created)
        progress = {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetCreated',
          message: `Created new replica set "${newRs.metadata.name}"`,
        };
      if (spec.strategy?.type === 'Recreate') this.recreate(d, newRs, olds, params.maxSurge);
      else this.rolling(d, newRs, olds, params);
    } else this.scaleOnly(d, newRs, olds, params.maxSurge);
    const fresh = claim(this.objects, kinds.replicaSets, d, this.objects.list(kinds.replicaSets, namespace), (rs) =>
      selects(rs.metadata.labels ?? {}),
    );
    newRs = fresh.find((rs) => equalIgnoreHash((rs.spec as DeploymentSpec).template, spec.template));
    olds = fresh.filter((rs) => rs !== newRs).sort(byAge);
    if (this.complete(d, newRs, olds)) this.cleanup(d, olds);
    this.updateStatus(d, newRs, olds, params.maxUnavailable, progress);
  }

  /** The ReplicaSet of the current template, created (or re-stamped with the newest revision). */
  private ensureNewReplicaSet(
    d: KubeObject,
    existing: KubeObject | undefined,
    olds: KubeObject[],
    maxSurge: number,
    initialReplicas?: number,
  ): KubeObject {
    const spec = specOf(d);
    const revision = Math.max(0, ...olds.map(revisionOf)) + 1;
    if (existing) {
      // A template rolled back to becomes the newest revision again.
      if (revisionOf(existing) >= revision) return this.stampRevision(d, existing);
      existing.metadata.annotations = { ...existing.metadata.annotations, [revisionAnnotation]: String(revision) };
      return this.stampRevision(d, this.objects.update(kinds.replicaSets, existing));
    }
    let collisions = (d.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0;
    for (;;) {
      const hash = templateHash(spec.template, collisions);
      const name = `${d.metadata.name}-${hash}`;
      const clash = this.objects.get(kinds.replicaSets, d.metadata.namespace, name);
      if (clash) {
        // The same template under this name is ours to adopt; another one is a hash collision.
        if (equalIgnoreHash((clash.spec as DeploymentSpec).template, spec.template) && controllerOf(clash)?.uid === d.metadata.uid)
          return clash;
        collisions++;
        continue;
      }
      const template = structuredClone(spec.template ?? {});
      template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [templateHashLabel]: hash } };
      const replicas = initialReplicas ?? this.newReplicas(d, undefined, olds, maxSurge);
      const rs = this.objects.create(kinds.replicaSets, d.metadata.namespace, {
        metadata: {
          name,
          labels: { ...template.metadata.labels },
          annotations: {
            [desiredReplicasAnnotation]: String(spec.replicas ?? 1),
            [maxReplicasAnnotation]: String((spec.replicas ?? 1) + maxSurge),
            [revisionAnnotation]: String(revision),
          },
          ownerReferences: [controllerRef(d)],
        },
        spec: {
          replicas,
          minReadySeconds: spec.minReadySeconds ?? 0,
          selector: { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, [templateHashLabel]: hash } },
          template,
        },
      });
      if (replicas > 0) this.recorder.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${replicas}`);
      if (collisions !== ((d.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0))
        this.objects.updateStatus(kinds.deployments, d.metadata.namespace, d.metadata.name!, {
          ...(d.status as JsonObject),
          collisionCount: collisions,
        });
      return this.stampRevision(d, rs);
    }
  }

  /** The deployment carries its newest ReplicaSet's revision (kubectl rollout history reads it). */
  private stampRevision(d: KubeObject, rs: KubeObject): KubeObject {
    const revision = rs.metadata.annotations?.[revisionAnnotation];
    if (revision && d.metadata.annotations?.[revisionAnnotation] !== revision) {
      const current = this.objects.get(kinds.deployments, d.metadata.namespace, d.metadata.name!);
      if (current) {
        current.metadata.annotations = { ...current.metadata.annotations, [revisionAnnotation]: revision };
        this.objects.update(kinds.deployments, current);
      }
    }
    return rs;
  }

  /** NewRSNewReplicas: as many more as maxSurge allows, up to spec.replicas. */
  private newReplicas(d: KubeObject, newRs: KubeObject | undefined, olds: KubeObject[], maxSurge: number): number {
    const replicas = specOf(d).replicas ?? 1;
    const current = newRs ? replicasOf(newRs) : 0;
    if (specOf(d).strategy?.type === 'Recreate') return replicas;
    const total = sum(olds, replicasOf) + current;
    const maxTotal = replicas + maxSurge;
    if (total >= maxTotal) return current;
    return current + Math.max(0, Math.min(maxTotal - total, replicas - current));
  }

  private rolling(d: KubeObject, newRs: KubeObject, olds: KubeObject[], params: { maxSurge: number; maxUnavailable: number }): void {
    const replicas = specOf(d).replicas ?? 1;
    // Scale up the new ReplicaSet (or down, when the deployment shrank).
    if (replicasOf(newRs) > replicas) newRs = this.scale(newRs, replicas, d, params.maxSurge);
    else if (replicasOf(newRs) < replicas) newRs = this.scale(newRs, this.newReplicas(d, newRs, olds, params.maxSurge), d, params.maxSurge);
    // Scale down old ones: unhealthy replicas first, then as availability allows.
    const active = olds.filter((rs) => replicasOf(rs) > 0);
    if (active.length === 0) return;
    const minAvailable = replicas - params.maxUnavailable;
    const newUnavailable = replicasOf(newRs) - statusNumber(newRs, 'availableReplicas');
    let all = [...olds, newRs];
    const maxScaledDown = sum(all, replicasOf) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return;
    let scaledDown = 0;
    for (const rs of active) {
      if (scaledDown >= maxScaledDown) break;
      const unhealthy = replicasOf(rs) - statusNumber(rs, 'availableReplicas');
      if (unhealthy <= 0) continue;
      const n = Math.min(maxScaledDown - scaledDown, unhealthy);
      this.scale(rs, replicasOf(rs) - n, d, params.maxSurge);
      scaledDown += n;
    }
    all = [...olds, newRs];
    const available = sum(all, (rs) => Math.min(statusNumber(rs, 'availableReplicas'), replicasOf(rs)));
    const allowed = available - minAvailable;
    let done = 0;
    for (const rs of active) {
      if (done >= allowed) break;
      if (replicasOf(rs) === 0) continue;
      const n = Math.min(replicasOf(rs), allowed - done);
      this.scale(rs, replicasOf(rs) - n, d, params.maxSurge);
      done += n;
    }
  }

  private recreate(d: KubeObject, newRs: KubeObject, olds: KubeObject[], maxSurge: number): void {
    for (const rs of olds) if (replicasOf(rs) > 0) this.scale(rs, 0, d, maxSurge);
    const oldUids = new Set(olds.map((rs) => rs.metadata.uid));
    const oldPodsLeft = this.objects
      .list(kinds.pods, d.metadata.namespace)
      .some(
        (p) =>
          oldUids.has(controllerOf(p)?.uid) &&
          (p.status as { phase?: string } | undefined)?.phase !== 'Succeeded' &&
          (p.status as { phase?: string } | undefined)?.phase !== 'Failed',
      );
    if (!oldPodsLeft) this.scale(newRs, specOf(d).replicas ?? 1, d, maxSurge);
  }

  /** A paused deployment still follows spec.replicas, on its newest active ReplicaSet. */
  private scaleOnly(d: KubeObject, newRs: KubeObject | undefined, olds: KubeObject[], maxSurge: number): void {
    const replicas = specOf(d).replicas ?? 1;
    const all = [...olds, ...(newRs ? [newRs] : [])];
    const active = all.filter((rs) => replicasOf(rs) > 0);
    const target = newRs ?? active[active.length - 1] ?? all[all.length - 1];
    if (!target) return;
    let excess = sum(active, replicasOf) - replicas;
    if (excess < 0) return void this.scale(target, replicasOf(target) - excess, d, maxSurge);
    for (const rs of active) {
      if (excess <= 0) break;
      const n = Math.min(excess, replicasOf(rs));
      this.scale(rs, replicasOf(rs) - n, d, maxSurge);
      excess -= n;
    }
  }

  private complete(d: KubeObject, newRs: KubeObject | undefined, olds: KubeObject[]): boolean {
    const replicas = specOf(d).replicas ?? 1;
    return (
      !!newRs &&
      replicasOf(newRs) === replicas &&
      statusNumber(newRs, 'availableReplicas') === replicas &&
      sum(olds, (rs) => statusNumber(rs, 'replicas')) === 0
    );
  }

  /** Old ReplicaSets scaled to zero beyond revisionHistoryLimit are deleted, oldest first. */
  private cleanup(d: KubeObject, olds: KubeObject[]): void {
    const limit = specOf(d).revisionHistoryLimit ?? 10;
    const idle = olds.filter((rs) => replicasOf(rs) === 0 && statusNumber(rs, 'replicas') === 0 && !rs.metadata.deletionTimestamp);
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit)))
      this.objects.delete(kinds.replicaSets, rs.metadata.namespace, rs.metadata.name!);
  }

  private updateStatus(
    d: KubeObject,
    newRs: KubeObject | undefined,
    olds: KubeObject[],
    maxUnavailable: number,
    progress?: Omit<Condition, 'lastUpdateTime' | 'lastTransitionTime'>,
  ): void {
    const spec = specOf(d);
    const replicas = spec.replicas ?? 1;
    const all = [...olds, ...(newRs ? [newRs] : [])];
    const old = (d.status ?? {}) as JsonObject;
    const available = sum(all, (rs) => statusNumber(rs, 'availableReplicas'));
    const counts: Record<string, number | undefined> = {
      observedGeneration: d.metadata.generation,
      replicas: sum(all, (rs) => statusNumber(rs, 'replicas')),
      updatedReplicas: newRs ? statusNumber(newRs, 'replicas') : 0,
      readyReplicas: sum(all, (rs) => statusNumber(rs, 'readyReplicas')),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, sum(all, replicasOf) - available),
    };
    const status: JsonObject = Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0 && v !== undefined)) as JsonObject;
    if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
    const conditions = ((old.conditions as unknown as Condition[] | undefined) ?? []).map((c) => ({ ...c }));
    const set = (c: Omit<Condition, 'lastUpdateTime' | 'lastTransitionTime'>, keepUpdateTime = false) => {
      const time = now();
      const i = conditions.findIndex((x) => x.type === c.type);
      const prev = conditions[i];
      if (prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message) return;
      const next: Condition = {
        ...c,
        lastUpdateTime: keepUpdateTime && prev ? prev.lastUpdateTime : time,
        lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : time,
      };
      if (i >= 0) conditions[i] = next;
      else conditions.push(next);
    };
    if (available >= replicas - maxUnavailable)
      set({ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    else
      set({
        type: 'Available',
        status: 'False',
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      });
    const rsName = newRs?.metadata.name ?? '';
    const completed = !!newRs && counts.updatedReplicas === replicas && counts.replicas === replicas && available === replicas;
    if (spec.paused) set({ type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    else if (completed)
      set({
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${rsName}" has successfully progressed.`,
      });
    else if (progress) set(progress);
    else if (this.progressed(old, status))
      set({ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.` });
    else if (newRs && !conditions.some((c) => c.type === 'Progressing'))
      set({ type: 'Progressing', status: 'True', reason: 'FoundNewReplicaSet', message: `Found new replica set "${rsName}"` });
    const progressing = conditions.find((c) => c.type === 'Progressing');
    const deadline = spec.progressDeadlineSeconds;
    if (!completed && !spec.paused && deadline !== undefined && progressing?.status === 'True') {
      const left = Date.parse(progressing.lastUpdateTime) + deadline * 1000 - Date.now();
      if (left <= 0)
        set({
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: `ReplicaSet "${rsName}" has timed out progressing.`,
        });
      else this.queue.addAfter(keyOf(d), left + 100);
    }
    // Progressing first, then Available, in the order the real controller leaves them.
    conditions.sort((a, b) => (a.type === 'Progressing' ? 0 : 1) - (b.type === 'Progressing' ? 0 : 1));
    status.conditions = conditions as unknown as JsonObject[];
    if (JSON.stringify(status) !== JSON.stringify(old))
      this.objects.updateStatus(kinds.deployments, d.metadata.namespace, d.metadata.name!, status);
  }

  /** Some progress since the last status: more updated, ready or available replicas, or fewer old ones. */
  private progressed(old: JsonObject, next: JsonObject): boolean {
    const n = (s: JsonObject, f: string) => (s[f] as number | undefined) ?? 0;
    return (
      n(next, 'updatedReplicas') > n(old, 'updatedReplicas') ||
      n(next, 'readyReplicas') > n(old, 'readyReplicas') ||
      n(next, 'availableReplicas') > n(old, 'availableReplicas') ||
      n(next, 'replicas') - n(next, 'updatedReplicas') < n(old, 'replicas') - n(old, 'updatedReplicas')
    );
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.queue.stop();
  }
}
