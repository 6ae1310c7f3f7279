// One reconcile of one EngineCluster, from scratch each time (level-triggered: it reads what is, and
// does the next steps towards what should be; running it twice does nothing more). The order: the
// Secret, the ConfigMap, the coordinator's Service (its address is the workers' discovery URI), the
// workers (observe, plan, act), the coordinator's Deployment (held back while workers roll: the
// coordinator is replaced last), the PodDisruptionBudget, then the status.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { API_VERSION, GROUP, KIND, PLURAL, VERSION, type EngineCluster, type EngineClusterStatus } from '../api/engine-cluster.js';
import { secretProperties } from '../api/catalog-properties.js';
import { clusterNames, roleSelector, selectorText } from '../api/names.js';
import { specProblems, withDefaults } from '../api/spec-defaults.js';
import { memoryProblems } from '../resources/memory-plan.js';
import { NodeClient } from '../engine/node-client.js';
import { apiMessage, isNotFound, mergePatch, type Kube } from '../kube/clients.js';
import type { EventRecorder } from '../kube/events.js';
import { ensure, kindApis, type KindApi } from '../kube/owned-objects.js';
import { configMap, sharedSecret, workersDisruptionBudget } from '../resources/cluster-objects.js';
import { coordinatorDeployment, coordinatorService } from '../resources/coordinator.js';
import { configFileText } from '../resources/engine-config.js';
import { sharedSecretKey } from '../resources/engine-pod.js';
import { hashOf } from '../resources/spec-hash.js';
import { workerTemplate } from '../resources/worker-pod.js';
import type { Autoscaler } from './autoscaler.js';
import { clusterStatus, type CoordinatorView } from './cluster-status.js';
import { Drains } from './drains.js';
import type { ReconcileResult } from './work-queue.js';
import { planWorkers, type WorkerPlan } from './worker-plan.js';
import { podView, type WorkerView } from './worker-view.js';
import { catalogRequiredKeys, missingKeys } from './secret-check.js';
import { securityRequiredKeys, tlsKeys } from '../api/security.js';
import { coordinatorUri, nodesService, tlsOn } from '../resources/node-addresses.js';

/** How soon to look again: while something is in motion, and when all is steady (node states change without watch events). */
export interface Periods {
  busyMs: number;
  steadyMs: number;
}

export class ClusterReconciler {
  private readonly apis;

  constructor(
    private readonly kube: Kube,
    private readonly events: EventRecorder,
    private readonly logger: Logger,
    private readonly autoscaler: Autoscaler,
    private readonly periods: Periods = { busyMs: 1000, steadyMs: 15000 },
  ) {
    this.apis = kindApis(kube);
  }

  private async readCluster(namespace: string, name: string): Promise<EngineCluster | undefined> {
    try {
      return (await this.kube.custom.getNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace,
        plural: PLURAL,
        name,
      })) as EngineCluster;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async reconcile(key: string): Promise<ReconcileResult> {
    const [namespace, name] = key.split('/');
    const stored = await this.readCluster(namespace, name);
    if (!stored || stored.metadata.deletionTimestamp) {
      // Its objects go with it: the garbage collector follows their ownerReferences.
      this.autoscaler.forget(key);
      return {};
    }
    const cluster: EngineCluster = {
      ...stored,
      apiVersion: stored.apiVersion ?? API_VERSION,
      kind: stored.kind ?? KIND,
      spec: withDefaults(stored.spec),
    };
    const log = this.logger.child({ cluster: key });
    const names = clusterNames(name);
    const selector = selectorText(roleSelector(cluster, 'worker'));
    const problems = [...specProblems(name, cluster.spec), ...memoryProblems(cluster.spec)];
    if (problems.length) {
      const previous = stored.status?.conditions?.find((c) => c.type === 'Degraded');
      if (previous?.reason !== 'InvalidSpec' || stored.status?.observedGeneration !== stored.metadata.generation)
        this.events.record(cluster, 'Warning', 'InvalidSpec', problems.join('; '));
      await this.writeStatus(
        cluster,
        clusterStatus({
          previous: stored.status,
          generation: stored.metadata.generation ?? 0,
          desired: cluster.spec.workers.replicas,
          templateHash: '',
          workers: [],
          plan: undefined,
          coordinator: {},
          coordinatorURL: '',
          selector,
          problems,
          missingSecrets: [],
          now: new Date(),
        }),
      );
      return {};
    }

    const missingSecrets = await this.missingSecrets(cluster);
    const previousDegraded = stored.status?.conditions?.find((c) => c.type === 'Degraded');
    if (missingSecrets.length && (previousDegraded?.reason !== 'SecretMissing' || previousDegraded.message !== missingSecrets.join('; ')))
      this.events.record(
        cluster,
        'Warning',
        'SecretMissing',
        `the engine pods cannot start until these exist: ${missingSecrets.join('; ')}`,
      );
    const secret = await this.ensureSecret(cluster);
    await this.ensureOwned(this.apis.configMaps, configMap(cluster), log);
    const service = (await this.ensureOwned(this.apis.services, coordinatorService(cluster), log)).object;
    if (cluster.spec.security?.tls?.nodeAddresses === 'PodDNS') await this.ensureOwned(this.apis.services, nodesService(cluster), log);
    const coordinatorUrl = coordinatorUri(cluster, service.spec!.clusterIP!);
    const nodes = new NodeClient(secret, undefined, await this.clusterCa(cluster));
    const template = workerTemplate(cluster, coordinatorUrl, hashOf(configFileText(cluster, 'worker')));

    const [workers, coordinator] = await Promise.all([
      this.observeWorkers(cluster, nodes, coordinatorUrl),
      this.observeCoordinator(cluster, nodes, coordinatorUrl),
    ]);
    const desired = this.autoscaler.desiredReplicas(key, cluster, workers, coordinator.engine, (from, to, why) =>
      this.events.record(cluster, 'Normal', 'Autoscaled', `workers ${from} -> ${to}: ${why}`),
    );
    const now = new Date();
    const plan = planWorkers({
      workers,
      desired,
      templateHash: template.hash,
      now: now.getTime(),
      drainTimeoutMs: cluster.spec.workers.drainTimeoutSeconds * 1000,
    });
    await this.act(cluster, plan, template.pod, nodes, now, log);

    // The coordinator is replaced last: its new template waits until no worker runs an outdated one.
    const rolling = workers.some((w) => !w.deleting && w.templateHash !== template.hash);
    const deployment = coordinatorDeployment(cluster, hashOf(configFileText(cluster, 'coordinator')));
    if (!rolling || !(await this.exists(namespace, names.coordinator))) {
      const result = await this.ensureOwned(this.apis.deployments, deployment, log);
      if (result.action === 'updated')
        this.events.record(
          cluster,
          'Normal',
          'CoordinatorUpdated',
          `the coordinator Deployment ${names.coordinator} changed: its pod is replaced (after its own drain)`,
        );
    }
    await this.ensureOwned(this.apis.disruptionBudgets, workersDisruptionBudget(cluster), log);

    const status = clusterStatus({
      previous: stored.status,
      generation: stored.metadata.generation ?? 0,
      desired,
      templateHash: template.hash,
      workers,
      plan,
      coordinator,
      coordinatorURL: `${tlsOn(cluster) ? 'https' : 'http'}://${names.service}.${namespace}.svc:${cluster.spec.coordinator.service.port}`,
      selector,
      problems,
      missingSecrets,
      now,
    });
    await this.writeStatus(cluster, status, stored.status);
    const moving =
      status.state !== 'Available' || plan.create > 0 || plan.remove.length > 0 || plan.drain.length > 0 || plan.continueDrain.length > 0;
    return {
      requeueAfterMs: moving
        ? this.periods.busyMs
        : this.autoscaler.enabled(cluster)
          ? Math.min(this.autoscaler.periodMs, this.periods.steadyMs)
          : this.periods.steadyMs,
    };
  }

  private async exists(namespace: string, name: string): Promise<boolean> {
    try {
      await this.kube.apps.readNamespacedDeployment({ namespace, name });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  private async ensureOwned<T extends { metadata?: k8s.V1ObjectMeta }>(api: KindApi<T>, desired: T, log: Logger) {
    const result = await ensure(api, desired);
    if (result.action !== 'unchanged')
      log.info({ kind: api.kind, name: desired.metadata?.name, action: result.action }, `${api.kind} ${result.action}`);
    return result;
  }

  /** What the catalogs' secret-backed properties and spec.security's files lack (Secrets, ConfigMaps or keys); only key names are read. */
  private async missingSecrets(cluster: EngineCluster): Promise<string[]> {
    const namespace = cluster.metadata.namespace!;
    const required = [...catalogRequiredKeys(secretProperties(cluster.spec.catalogs ?? {})), ...securityRequiredKeys(cluster.spec)];
    return missingKeys(required, namespace, async (kind, name) => {
      try {
        const object =
          kind === 'Secret'
            ? await this.kube.core.readNamespacedSecret({ namespace, name })
            : await this.kube.core.readNamespacedConfigMap({ namespace, name });
        return new Set([
          ...Object.keys(object.data ?? {}),
          ...Object.keys((object as k8s.V1Secret).stringData ?? {}),
          ...Object.keys((object as k8s.V1ConfigMap).binaryData ?? {}),
        ]);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new Error(`could not read ${kind} ${namespace}/${name}: ${apiMessage(err)}`);
      }
    });
  }

  /** The CA the nodes' certificates are checked against: ca.crt of the TLS Secret (undefined without TLS, or while it is missing). */
  private async clusterCa(cluster: EngineCluster): Promise<string | undefined> {
    const tls = cluster.spec.security?.tls;
    if (!tls) return undefined;
    try {
      const secret = await this.kube.core.readNamespacedSecret({ namespace: cluster.metadata.namespace!, name: tls.secretName });
      const ca = secret.data?.[tlsKeys.ca];
      return ca === undefined ? undefined : Buffer.from(ca, 'base64').toString('utf8');
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The cluster's shared secret: made once, then only read (changing it would split the cluster). */
  private async ensureSecret(cluster: EngineCluster): Promise<string> {
    const namespace = cluster.metadata.namespace!;
    const name = clusterNames(cluster.metadata.name!).secret;
    let secret: k8s.V1Secret;
    try {
      secret = await this.kube.core.readNamespacedSecret({ namespace, name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      secret = await this.kube.core.createNamespacedSecret({ namespace, body: sharedSecret(cluster) });
      this.events.record(cluster, 'Normal', 'SecretCreated', `generated the shared secret between the nodes in Secret ${name}`);
    }
    const value = secret.data?.[sharedSecretKey];
    if (!value) throw new Error(`Secret ${namespace}/${name} has no key ${sharedSecretKey}`);
    return Buffer.from(value, 'base64').toString('utf8');
  }

  private async observeWorkers(cluster: EngineCluster, nodes: NodeClient, coordinatorUrl: string): Promise<WorkerView[]> {
    const namespace = cluster.metadata.namespace!;
    const list = await this.kube.core.listNamespacedPod({ namespace, labelSelector: selectorText(roleSelector(cluster, 'worker')) });
    // Pods of an earlier cluster of the same name are left to the garbage collector.
    const views = list.items
      .filter((p) => p.metadata?.ownerReferences?.some((o) => o.uid === cluster.metadata.uid))
      .map((p) => podView(cluster, p));
    const listing = nodes.nodes(coordinatorUrl).catch(() => undefined);
    await Promise.all(
      views.map(async (w) => {
        if (!w.uri || w.deleting) return;
        w.engine = await nodes.status(w.uri).catch(() => undefined);
      }),
    );
    const known = await listing;
    for (const w of views) w.listed = known !== undefined && w.uri !== undefined && known.known.has(w.uri) && !known.failed.has(w.uri);
    return views;
  }

  private async observeCoordinator(cluster: EngineCluster, nodes: NodeClient, coordinatorUrl: string): Promise<CoordinatorView> {
    const list = await this.kube.core.listNamespacedPod({
      namespace: cluster.metadata.namespace!,
      labelSelector: selectorText(roleSelector(cluster, 'coordinator')),
    });
    const pod = list.items.map((p) => podView(cluster, p)).find((p) => !p.deleting);
    return {
      pod: pod && { name: pod.name, running: pod.running, waitingReason: pod.waitingReason, restarts: pod.restarts },
      engine: await nodes.status(coordinatorUrl).catch(() => undefined),
    };
  }

  private async act(cluster: EngineCluster, plan: WorkerPlan, pod: k8s.V1Pod, nodes: NodeClient, now: Date, log: Logger): Promise<void> {
    const namespace = cluster.metadata.namespace!;
    const drains = new Drains(this.kube, nodes);
    for (const { worker, reason } of plan.remove) {
      const force = reason === 'DrainTimedOut';
      await this.deletePod(namespace, worker.name, force ? 0 : undefined);
      if (reason === 'Drained')
        this.events.record(
          cluster,
          'Normal',
          'WorkerRemoved',
          `deleted worker ${worker.name}: drained, its node reached SHUTTING_DOWN and exited (${Math.round((now.getTime() - Date.parse(worker.drain!.startedAt)) / 100) / 10} s after the drain began)`,
        );
      else if (reason === 'DrainTimedOut')
        this.events.record(
          cluster,
          'Warning',
          'DrainTimedOut',
          `worker ${worker.name} still had work after ${cluster.spec.workers.drainTimeoutSeconds} s of draining: deleted at once`,
        );
      else if (reason === 'Exited')
        this.events.record(
          cluster,
          'Warning',
          'WorkerExited',
          `worker ${worker.name} exited${worker.exitCode !== undefined ? ` with code ${worker.exitCode}` : ''} without being drained: replacing it`,
        );
      else this.events.record(cluster, 'Normal', 'WorkerRemoved', `deleted worker ${worker.name}, which had not started`);
    }
    for (const worker of plan.cancelDrain) {
      await drains.cancel(worker);
      this.events.record(cluster, 'Normal', 'DrainCancelled', `worker ${worker.name} is needed again: back to ACTIVE`);
    }
    for (const { worker, reason } of plan.drain) {
      await drains.start(worker, reason, now);
      this.events.record(
        cluster,
        'Normal',
        'DrainStarted',
        `draining worker ${worker.name} (${reason === 'Rollout' ? 'outdated template' : 'scale in'}): ISOLATING`,
      );
    }
    for (const worker of plan.continueDrain) log.debug({ pod: worker.name, drain: await drains.advance(worker) }, 'drain step');
    for (let i = 0; i < plan.create; i++) {
      const created = await this.kube.core.createNamespacedPod({ namespace, body: pod });
      this.events.record(cluster, 'Normal', 'WorkerCreated', `created worker ${created.metadata!.name}`);
    }
  }

  private async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    try {
      await this.kube.core.deleteNamespacedPod({ namespace, name, ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}) });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Writes the status through the status subresource, unless it says what the stored one says. */
  private async writeStatus(cluster: EngineCluster, status: EngineClusterStatus, previous?: EngineClusterStatus): Promise<void> {
    if (hashOf(status) === hashOf(previous ?? cluster.status ?? {})) return;
    try {
      await this.kube.custom.patchNamespacedCustomObjectStatus(
        {
          group: GROUP,
          version: VERSION,
          namespace: cluster.metadata.namespace!,
          plural: PLURAL,
          name: cluster.metadata.name!,
          body: { status },
        },
        mergePatch,
      );
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Error(`could not write the status: ${apiMessage(err)}`);
    }
  }
}
