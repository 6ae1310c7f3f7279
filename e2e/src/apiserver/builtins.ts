// The built-in kinds the test server stores, with the discovery facts kubectl relies on
// (short names, categories, scope) and the table columns the real server prints for them.
import type { PrinterColumn, ResourceType } from "./registry.js";
import { validateHpa } from "./hpa.js";
import { hpaFromStorage, hpaToStorage } from "./hpa-v1.js";

const age: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

function builtin(t: Omit<ResourceType, "statusSubresource"> & { statusSubresource?: boolean }): ResourceType {
  return { statusSubresource: false, ...t };
}

export const builtinTypes: ResourceType[] = [
  builtin({ group: "", version: "v1", resource: "namespaces", singular: "namespace", kind: "Namespace", namespaced: false, shortNames: ["ns"], statusSubresource: true,
    printerColumns: [{ name: "Status", type: "string", jsonPath: ".status.phase" }, age] }),
  builtin({ group: "", version: "v1", resource: "nodes", singular: "node", kind: "Node", namespaced: false, shortNames: ["no"], statusSubresource: true }),
  builtin({ group: "", version: "v1", resource: "pods", singular: "pod", kind: "Pod", namespaced: true, shortNames: ["po"], categories: ["all"], statusSubresource: true, returnDeletedObject: true }),
  builtin({ group: "", version: "v1", resource: "services", singular: "service", kind: "Service", namespaced: true, shortNames: ["svc"], categories: ["all"], statusSubresource: true }),
  builtin({ group: "", version: "v1", resource: "endpoints", singular: "endpoints", kind: "Endpoints", namespaced: true, shortNames: ["ep"] }),
  builtin({ group: "", version: "v1", resource: "configmaps", singular: "configmap", kind: "ConfigMap", namespaced: true, shortNames: ["cm"] }),
  builtin({ group: "", version: "v1", resource: "secrets", singular: "secret", kind: "Secret", namespaced: true,
    printerColumns: [{ name: "Type", type: "string", jsonPath: ".type" }, age] }),
  builtin({ group: "", version: "v1", resource: "serviceaccounts", singular: "serviceaccount", kind: "ServiceAccount", namespaced: true, shortNames: ["sa"] }),
  builtin({ group: "", version: "v1", resource: "events", singular: "event", kind: "Event", namespaced: true, shortNames: ["ev"] }),
  builtin({ group: "events.k8s.io", version: "v1", resource: "events", singular: "event", kind: "Event", namespaced: true, shortNames: ["ev"] }),
  builtin({ group: "discovery.k8s.io", version: "v1", resource: "endpointslices", singular: "endpointslice", kind: "EndpointSlice", namespaced: true }),
  builtin({ group: "apps", version: "v1", resource: "deployments", singular: "deployment", kind: "Deployment", namespaced: true, shortNames: ["deploy"], categories: ["all"], statusSubresource: true,
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
    printerColumns: [
      { name: "Up-to-date", type: "integer", jsonPath: ".status.updatedReplicas" },
      { name: "Available", type: "integer", jsonPath: ".status.availableReplicas" },
      age,
    ] }),
  builtin({ group: "apps", version: "v1", resource: "replicasets", singular: "replicaset", kind: "ReplicaSet", namespaced: true, shortNames: ["rs"], categories: ["all"], statusSubresource: true,
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
    printerColumns: [
      { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
      { name: "Current", type: "integer", jsonPath: ".status.replicas" },
      { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
      age,
    ] }),
  builtin({ group: "apps", version: "v1", resource: "statefulsets", singular: "statefulset", kind: "StatefulSet", namespaced: true, shortNames: ["sts"], categories: ["all"], statusSubresource: true,
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } }),
  builtin({ group: "autoscaling", version: "v2", resource: "horizontalpodautoscalers", singular: "horizontalpodautoscaler", kind: "HorizontalPodAutoscaler", namespaced: true, shortNames: ["hpa"], categories: ["all"], statusSubresource: true,
    admit: validateHpa }),
  builtin({ group: "autoscaling", version: "v1", resource: "horizontalpodautoscalers", singular: "horizontalpodautoscaler", kind: "HorizontalPodAutoscaler", namespaced: true, shortNames: ["hpa"], categories: ["all"], statusSubresource: true,
    admit: validateHpa, conversion: { toStorage: hpaToStorage, fromStorage: hpaFromStorage } }),
  builtin({ group: "policy", version: "v1", resource: "poddisruptionbudgets", singular: "poddisruptionbudget", kind: "PodDisruptionBudget", namespaced: true, shortNames: ["pdb"], statusSubresource: true }),
  builtin({ group: "coordination.k8s.io", version: "v1", resource: "leases", singular: "lease", kind: "Lease", namespaced: true }),
  builtin({ group: "rbac.authorization.k8s.io", version: "v1", resource: "roles", singular: "role", kind: "Role", namespaced: true }),
  builtin({ group: "rbac.authorization.k8s.io", version: "v1", resource: "rolebindings", singular: "rolebinding", kind: "RoleBinding", namespaced: true }),
  builtin({ group: "rbac.authorization.k8s.io", version: "v1", resource: "clusterroles", singular: "clusterrole", kind: "ClusterRole", namespaced: false }),
  builtin({ group: "rbac.authorization.k8s.io", version: "v1", resource: "clusterrolebindings", singular: "clusterrolebinding", kind: "ClusterRoleBinding", namespaced: false }),
  builtin({ group: "apiextensions.k8s.io", version: "v1", resource: "customresourcedefinitions", singular: "customresourcedefinition", kind: "CustomResourceDefinition", namespaced: false, shortNames: ["crd", "crds"], categories: ["api-extensions"], statusSubresource: true,
    printerColumns: [{ name: "Created At", type: "string", format: "date-time", jsonPath: ".metadata.creationTimestamp" }] }),
];
