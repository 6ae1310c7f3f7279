// Defaults the real server fills in for the built-in kinds (the fields kubectl and controllers read).
import type { ResourceType } from './registry.js';
import type { JsonObject, KubeObject } from './types.js';
import type { Api } from './api.js';
import { selectorString, type LabelSelector } from './selectors.js';
import { assignServiceAddresses } from './service-addresses.js';
import { hpaDefaults } from './hpa.js';

type Defaulter = (obj: KubeObject, api: Api, old?: KubeObject) => void;

function probeDefaults(probe: JsonObject): void {
  probe.timeoutSeconds ??= 1;
  probe.periodSeconds ??= 10;
  probe.successThreshold ??= 1;
  probe.failureThreshold ??= 3;
  if (probe.httpGet) (probe.httpGet as JsonObject).scheme ??= 'HTTP';
}

function podSpecDefaults(spec: JsonObject): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  for (const c of [...((spec.containers as JsonObject[]) ?? []), ...((spec.initContainers as JsonObject[]) ?? [])]) {
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.imagePullPolicy ??= String(c.image ?? '').endsWith(':latest') || !String(c.image ?? '').includes(':') ? 'Always' : 'IfNotPresent';
    c.resources ??= {};
    for (const p of (c.ports as JsonObject[]) ?? []) p.protocol ??= 'TCP';
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (c[probe]) probeDefaults(c[probe] as JsonObject);
    for (const hook of ['postStart', 'preStop']) {
      const httpGet = ((c.lifecycle as JsonObject | undefined)?.[hook] as JsonObject | undefined)?.httpGet as JsonObject | undefined;
      if (httpGet) httpGet.scheme ??= 'HTTP';
    }
  }
}

const defaulters: Record<string, Defaulter> = {
  Namespace(obj) {
    obj.spec = { finalizers: ['kubernetes'], ...(obj.spec as JsonObject) };
    obj.status = { phase: 'Active', ...(obj.status as JsonObject) };
    obj.metadata.labels = { ...obj.metadata.labels, 'kubernetes.io/metadata.name': obj.metadata.name! };
  },
  Pod(obj, _api, old) {
    obj.spec ??= {};
    podSpecDefaults(obj.spec as JsonObject);
    if (!old) obj.status = { phase: 'Pending', qosClass: 'BestEffort', ...(obj.status as JsonObject) };
  },
  Service(obj, api, old) {
    const spec = (obj.spec ??= {}) as JsonObject;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    for (const p of (spec.ports as JsonObject[]) ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
    assignServiceAddresses(obj, api, old);
    if (spec.type !== 'ExternalName') {
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      spec.internalTrafficPolicy ??= 'Cluster';
    }
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
    obj.status ??= { loadBalancer: {} };
  },
  Deployment(obj) {
    const spec = (obj.spec ??= {}) as JsonObject;
    spec.replicas ??= 1;
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
    const strategy = (spec.strategy ??= {}) as JsonObject;
    strategy.type ??= 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const rolling = (strategy.rollingUpdate ??= {}) as JsonObject;
      rolling.maxUnavailable ??= '25%';
      rolling.maxSurge ??= '25%';
    }
    const template = (spec.template ??= {}) as JsonObject;
    podSpecDefaults((template.spec ??= {}) as JsonObject);
  },
  ReplicaSet(obj) {
    const spec = (obj.spec ??= {}) as JsonObject;
    spec.replicas ??= 1;
    const template = (spec.template ??= {}) as JsonObject;
    podSpecDefaults((template.spec ??= {}) as JsonObject);
  },
  StatefulSet(obj) {
    const spec = (obj.spec ??= {}) as JsonObject;
    spec.replicas ??= 1;
    spec.podManagementPolicy ??= 'OrderedReady';
    spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    const template = (spec.template ??= {}) as JsonObject;
    podSpecDefaults((template.spec ??= {}) as JsonObject);
  },
  HorizontalPodAutoscaler: hpaDefaults,
  Secret(obj) {
    if (!obj.type) obj.type = 'Opaque';
    // stringData is write-only: merged into data (base64) and never stored, as the real server does.
    const stringData = obj.stringData as Record<string, string> | undefined;
    if (stringData) {
      const data = (obj.data ??= {}) as Record<string, string>;
      for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      delete obj.stringData;
    }
  },
};

export function applyDefaults(t: ResourceType, obj: KubeObject, api: Api, old?: KubeObject): void {
  if (t.crdName) return;
  defaulters[t.kind]?.(obj, api, old);
}

/** The selector string a scale subresource reports for apps kinds. */
export function appsSelector(obj: KubeObject): string {
  return selectorString((obj.spec as { selector?: LabelSelector } | undefined)?.selector);
}
