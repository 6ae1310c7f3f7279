// Every version of the pods of a label selector, as a watch delivers them from the moment it starts:
// the record a test reads to tell in which order things happened to a pod (drained, exited, deleted).
import * as k8s from '@kubernetes/client-node';

export interface PodVersion {
  type: string;
  pod: k8s.V1Pod;
  at: number;
}

export class PodHistory {
  readonly versions = new Map<string, PodVersion[]>();
  private watch?: AbortController;

  static async start(kubeconfigPath: string, namespace: string, labelSelector: string): Promise<PodHistory> {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    const history = new PodHistory();
    history.watch = await new k8s.Watch(kc).watch(
      `/api/v1/namespaces/${namespace}/pods`,
      { labelSelector },
      (type, pod: k8s.V1Pod) => {
        const name = pod.metadata!.name!;
        const list = history.versions.get(name) ?? [];
        list.push({ type, pod, at: Date.now() });
        history.versions.set(name, list);
      },
      () => undefined,
    );
    return history;
  }

  /** Pods that were deleted (their DELETED event arrived). */
  deleted(): string[] {
    return [...this.versions].filter(([, v]) => v.some((x) => x.type === 'DELETED')).map(([name]) => name);
  }

  /**
   * The pod as it was when its deletion began: its first version marked for deletion, or (a pod that
   * had ended is deleted at once, with no grace period) the version its DELETED event carries.
   */
  atDeletion(name: string): k8s.V1Pod | undefined {
    return this.versions.get(name)?.find((v) => v.pod.metadata?.deletionTimestamp || v.type === 'DELETED')?.pod;
  }

  stop(): void {
    this.watch?.abort();
  }
}
