// The parts of the core/v1 Pod the process kubelet reads, typed (the store holds plain JSON).
import type { KubeObject } from '../apiserver/types.js';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface DownwardItem {
  path: string;
  fieldRef?: { fieldPath: string };
  resourceFieldRef?: unknown;
  mode?: number;
}

export interface ProjectionSource {
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardItem[] };
  [other: string]: unknown;
}

export interface Volume {
  name: string;
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  emptyDir?: object;
  hostPath?: { path: string; type?: string };
  downwardAPI?: { items?: DownwardItem[]; defaultMode?: number };
  projected?: { sources?: ProjectionSource[]; defaultMode?: number };
  [other: string]: unknown;
}

export interface KeySelector {
  name: string;
  key: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    configMapKeyRef?: KeySelector;
    secretKeyRef?: KeySelector;
    resourceFieldRef?: unknown;
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: string;
  httpHeaders?: { name: string; value: string }[];
}

/** A probe's or a lifecycle hook's action. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HttpGetAction;
  tcpSocket?: { port: number | string; host?: string };
  grpc?: unknown;
  sleep?: { seconds: number };
}

export interface Probe extends Handler {
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  restartPolicy?: string;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  hostname?: string;
  enableServiceLinks?: boolean;
  readinessGates?: { conditionType: string }[];
}

export function podSpec(pod: KubeObject): PodSpec {
  return pod.spec as unknown as PodSpec;
}
