// The EngineCluster custom resource as the operator reads it (crds/engineclusters.engine.io.yaml is
// the schema the API server enforces; the spec here is after its defaults are applied).
import type { V1ObjectMeta } from "@kubernetes/client-node";

export const GROUP = "engine.io";
export const VERSION = "v1alpha1";
export const PLURAL = "engineclusters";
export const KIND = "EngineCluster";
export const API_VERSION = `${GROUP}/${VERSION}`;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type Quantity = string | number;

export interface ResourceRequirements {
  requests?: Record<string, Quantity>;
  limits?: Record<string, Quantity>;
}

export type ConnectorName = "tpch" | "memory" | "system";

export interface CatalogSpec {
  connector: ConnectorName;
  properties?: Record<string, string>;
}

export interface AutoscalingSpec {
  enabled: boolean;
  minReplicas: number;
  maxReplicas: number;
  targetQueuedQueries: number;
  targetRunningSplitsPerWorker: number;
  scaleInStabilizationSeconds: number;
}

export type ServiceType = "ClusterIP" | "NodePort" | "LoadBalancer";

export interface CoordinatorSpec {
  resources?: ResourceRequirements;
  service: { type: ServiceType; port: number; nodePort?: number };
  config?: JsonObject;
}

export interface WorkersSpec {
  replicas: number;
  resources?: ResourceRequirements;
  drainTimeoutSeconds: number;
  config?: JsonObject;
  autoscaling?: AutoscalingSpec;
}

export interface EngineClusterSpec {
  image: string;
  imagePullPolicy: "Always" | "IfNotPresent" | "Never";
  config?: JsonObject;
  catalogs?: Record<string, CatalogSpec>;
  coordinator: CoordinatorSpec;
  workers: WorkersSpec;
}

export type ConditionType = "Available" | "Progressing" | "Degraded";

export interface Condition {
  type: ConditionType;
  status: "True" | "False" | "Unknown";
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

export interface NodeStatusEntry {
  pod: string;
  nodeId: string;
  role: "coordinator" | "worker";
  /** The engine's state (ACTIVE, ISOLATING, ...), or the pod's when the engine does not answer (Pending, CrashLoopBackOff, ...). */
  state: string;
  runningTasks: number;
  restarts: number;
}

export interface EngineClusterStatus {
  observedGeneration?: number;
  state?: "Pending" | "Progressing" | "Available" | "Degraded";
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
