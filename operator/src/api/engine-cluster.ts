// The EngineCluster custom resource as the operator reads it (crds/engineclusters.engine.io.yaml is
// the schema the API server enforces; the spec here is after its defaults are applied).
import type { V1ObjectMeta, V1Volume, V1VolumeMount } from '@kubernetes/client-node';

export const GROUP = 'engine.io';
export const VERSION = 'v1alpha1';
export const PLURAL = 'engineclusters';
export const KIND = 'EngineCluster';
export const API_VERSION = `${GROUP}/${VERSION}`;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type Quantity = string | number;

export interface ResourceRequirements {
  requests?: Record<string, Quantity>;
  limits?: Record<string, Quantity>;
}

/** The connectors the engine serves (its configuration schema's list; a test holds the CRD's enum to it). */
export const CONNECTORS = ['tpch', 'memory', 'system', 'hive', 'postgresql'] as const;
export type ConnectorName = (typeof CONNECTORS)[number];

export interface SecretKeySelector {
  name: string;
  key: string;
}

/** A catalog property whose value is a key of a Secret (handed to the pods as an environment variable). */
export interface PropertyFromSecret {
  valueFrom: { secretKeyRef: SecretKeySelector };
}

export type CatalogPropertyValue = string | PropertyFromSecret;

export interface CatalogSpec {
  connector: ConnectorName;
  properties?: Record<string, CatalogPropertyValue>;
}

/** Volumes of the pods and where the engine container mounts them (core/v1 Volume and VolumeMount, passed through). */
export interface VolumesSpec {
  volumes?: V1Volume[];
  volumeMounts?: V1VolumeMount[];
}

export interface AutoscalingSpec {
  enabled: boolean;
  minReplicas: number;
  maxReplicas: number;
  targetQueuedQueries: number;
  targetRunningSplitsPerWorker: number;
  scaleInStabilizationSeconds: number;
}

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer';

export interface CoordinatorSpec extends VolumesSpec {
  resources?: ResourceRequirements;
  service: { type: ServiceType; port: number; nodePort?: number };
  config?: JsonObject;
}

export interface WorkersSpec extends VolumesSpec {
  replicas: number;
  resources?: ResourceRequirements;
  drainTimeoutSeconds: number;
  config?: JsonObject;
  autoscaling?: AutoscalingSpec;
}

/** How the nodes name each other, and the operator them, over HTTPS: the certificate must name these addresses. */
export type NodeAddresses = 'PodDNS' | 'PodIP';

/** TLS from a Secret holding tls.crt, tls.key and ca.crt (as cert-manager writes one). */
export interface TlsSpec {
  secretName: string;
  nodeAddresses: NodeAddresses;
}

/** A key of a Secret or ConfigMap of the cluster's namespace. */
export interface KeyRef {
  name: string;
  key: string;
}

export interface JwtSpec {
  /** The key file (PEM public key or certificate, or a base64 HMAC key) from a Secret. */
  keySecret?: KeyRef;
  /** Or the issuer's JWKS URL. */
  jwksUrl?: string;
  requiredIssuer?: string;
  requiredAudience?: string;
  principalField?: string;
}

/** Client authentication: the types are PASSWORD then JWT, as given. */
export interface AuthenticationSpec {
  /** The password file (htpasswd lines) from a Secret. */
  password?: KeyRef;
  jwt?: JwtSpec;
}

/** Trino's file-based access control: the rules file (JSON) from a ConfigMap. */
export interface AccessControlSpec {
  rulesConfigMap: KeyRef;
  refreshPeriod?: string;
}

export interface SecuritySpec {
  tls?: TlsSpec;
  authentication?: AuthenticationSpec;
  accessControl?: AccessControlSpec;
}

export interface EngineClusterSpec extends VolumesSpec {
  image: string;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  config?: JsonObject;
  catalogs?: Record<string, CatalogSpec>;
  coordinator: CoordinatorSpec;
  workers: WorkersSpec;
  security?: SecuritySpec;
}

export type ConditionType = 'Available' | 'Progressing' | 'Degraded';

export interface Condition {
  type: ConditionType;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

export interface NodeStatusEntry {
  pod: string;
  nodeId: string;
  role: 'coordinator' | 'worker';
  /** The engine's state (ACTIVE, ISOLATING, ...), or the pod's when the engine does not answer (Pending, CrashLoopBackOff, ...). */
  state: string;
  runningTasks: number;
  restarts: number;
}

export interface EngineClusterStatus {
  observedGeneration?: number;
  state?: 'Pending' | 'Progressing' | 'Available' | 'Degraded';
  coordinatorURL?: string;
  selector?: string;
  workers?: { desired: number; ready: number; draining: number; updated: number };
  nodes?: NodeStatusEntry[];
  conditions?: Condition[];
}

export interface EngineCluster {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
  spec: EngineClusterSpec;
  status?: EngineClusterStatus;
}
