// The watches that drive reconciliation: EngineClusters, and the objects the operator made (found by
// the managed-by label; their engine.io/cluster label names the cluster to reconcile). Each is an
// informer (list, then watch from the list's resourceVersion); one that fails starts over after a pause.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { GROUP, PLURAL, VERSION } from '../api/engine-cluster.js';
import { labels, managedBy } from '../api/names.js';
import type { Kube } from './clients.js';

export type Enqueue = (key: string) => void;

type AnyList = k8s.KubernetesListObject<k8s.KubernetesObject>;

interface Watched {
  what: string;
  path: string;
  list: () => Promise<AnyList>;
  labelSelector?: string;
  /** The cluster an object belongs to: itself for an EngineCluster, its label for the rest. */
  keyOf: (obj: k8s.KubernetesObject) => string | undefined;
  /** Which updates are worth a reconcile (default: every one). */
  generations?: GenerationFilter;
}

const ownedSelector = `${labels.managedBy}=${managedBy}`;

function ownerKey(obj: k8s.KubernetesObject): string | undefined {
  const cluster = obj.metadata?.labels?.[labels.cluster];
  return cluster && obj.metadata?.namespace ? `${obj.metadata.namespace}/${cluster}` : undefined;
}

/** Remembers each object's generation: an update matters when it changed (its spec did). */
class GenerationFilter {
  private readonly seen = new Map<string, number | undefined>();

  changed(obj: k8s.KubernetesObject): boolean {
    const uid = obj.metadata?.uid ?? '';
    const generation = obj.metadata?.generation;
    const changed = !this.seen.has(uid) || this.seen.get(uid) !== generation;
    this.seen.set(uid, generation);
    return changed;
  }

  forget(obj: k8s.KubernetesObject): void {
    this.seen.delete(obj.metadata?.uid ?? '');
  }
}

function watchedKinds(kube: Kube, namespace: string | undefined): Watched[] {
  const ns = (base: string, resource: string) => (namespace ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`);
  const labelSelector = ownedSelector;
  const core = kube.core;
  const owned = (what: string, path: string, list: () => Promise<unknown>): Watched => ({
    what,
    path,
    list: list as () => Promise<AnyList>,
    labelSelector,
    keyOf: ownerKey,
  });
  return [
    {
      what: 'EngineCluster',
      path: ns(`/apis/${GROUP}/${VERSION}`, PLURAL),
      list: () =>
        (namespace
          ? kube.custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL })
          : kube.custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL })) as Promise<AnyList>,
      keyOf: (obj) => `${obj.metadata!.namespace}/${obj.metadata!.name}`,
      // The operator's own status writes change no generation: they need no reconcile.
      generations: new GenerationFilter(),
    },
    owned('Pod', ns('/api/v1', 'pods'), () =>
      namespace ? core.listNamespacedPod({ namespace, labelSelector }) : core.listPodForAllNamespaces({ labelSelector }),
    ),
    owned('Service', ns('/api/v1', 'services'), () =>
      namespace ? core.listNamespacedService({ namespace, labelSelector }) : core.listServiceForAllNamespaces({ labelSelector }),
    ),
    owned('ConfigMap', ns('/api/v1', 'configmaps'), () =>
      namespace ? core.listNamespacedConfigMap({ namespace, labelSelector }) : core.listConfigMapForAllNamespaces({ labelSelector }),
    ),
    owned('Secret', ns('/api/v1', 'secrets'), () =>
      namespace ? core.listNamespacedSecret({ namespace, labelSelector }) : core.listSecretForAllNamespaces({ labelSelector }),
    ),
    owned('Deployment', ns('/apis/apps/v1', 'deployments'), () =>
      namespace
        ? kube.apps.listNamespacedDeployment({ namespace, labelSelector })
        : kube.apps.listDeploymentForAllNamespaces({ labelSelector }),
    ),
    owned('PodDisruptionBudget', ns('/apis/policy/v1', 'poddisruptionbudgets'), () =>
      namespace
        ? kube.policy.listNamespacedPodDisruptionBudget({ namespace, labelSelector })
        : kube.policy.listPodDisruptionBudgetForAllNamespaces({ labelSelector }),
    ),
  ];
}

export class Watches {
  private readonly informers: k8s.Informer<k8s.KubernetesObject>[] = [];
  private stopped = false;

  constructor(
    private readonly kube: Kube,
    private readonly namespace: string | undefined,
    private readonly enqueue: Enqueue,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await Promise.all(watchedKinds(this.kube, this.namespace).map((w) => this.startOne(w)));
  }

  private async startOne(w: Watched): Promise<void> {
    const informer = k8s.makeInformer(this.kube.config, w.path, w.list, w.labelSelector);
    const onEvent = (obj: k8s.KubernetesObject) => {
      const key = w.keyOf(obj);
      if (key) this.enqueue(key);
    };
    informer.on('add', (obj) => {
      w.generations?.changed(obj);
      onEvent(obj);
    });
    informer.on('update', (obj) => {
      if (!w.generations || w.generations.changed(obj)) onEvent(obj);
    });
    informer.on('delete', (obj) => {
      w.generations?.forget(obj);
      onEvent(obj);
    });
    informer.on('error', (err: unknown) => {
      if (this.stopped) return;
      this.logger.warn({ watch: w.what, error: err instanceof Error ? err.message : String(err) }, 'watch failed; starting it again');
      setTimeout(() => {
        if (!this.stopped) informer.start().catch(() => undefined);
      }, 1000);
    });
    this.informers.push(informer);
    await informer.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.informers.map((i) => i.stop()));
  }
}
