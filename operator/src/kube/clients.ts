// The API clients the operator uses (@kubernetes/client-node), made from one KubeConfig: the
// in-cluster service account in a pod, or $KUBECONFIG / ~/.kube/config elsewhere.
import * as k8s from '@kubernetes/client-node';

export class Kube {
  readonly core: k8s.CoreV1Api;
  readonly apps: k8s.AppsV1Api;
  readonly policy: k8s.PolicyV1Api;
  readonly coordination: k8s.CoordinationV1Api;
  readonly custom: k8s.CustomObjectsApi;

  constructor(readonly config: k8s.KubeConfig) {
    this.core = config.makeApiClient(k8s.CoreV1Api);
    this.apps = config.makeApiClient(k8s.AppsV1Api);
    this.policy = config.makeApiClient(k8s.PolicyV1Api);
    this.coordination = config.makeApiClient(k8s.CoordinationV1Api);
    this.custom = config.makeApiClient(k8s.CustomObjectsApi);
  }

  static fromEnvironment(): Kube {
    const config = new k8s.KubeConfig();
    config.loadFromDefault();
    return new Kube(config);
  }
}

/** Options of a JSON merge patch request. */
export const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export function statusCode(err: unknown): number | undefined {
  return err instanceof k8s.ApiException ? err.code : undefined;
}

export const isNotFound = (err: unknown) => statusCode(err) === 404;
export const isConflict = (err: unknown) => statusCode(err) === 409;

/** The API server's message of a failed request (its Status object), else the error's own. */
export function apiMessage(err: unknown): string {
  if (err instanceof k8s.ApiException) {
    try {
      const status = JSON.parse(String(err.body)) as { message?: string };
      if (status.message) return `${err.code}: ${status.message}`;
    } catch {
      // not a Status object
    }
    return `${err.code}: ${String(err.body).slice(0, 300)}`;
  }
  return err instanceof Error ? err.message : String(err);
}
