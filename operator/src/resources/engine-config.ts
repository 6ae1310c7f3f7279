// Each role's engine configuration file: the configuration the spec gives the role (role-config),
// with the memory settings the operator derives (memory-plan).
import type { EngineCluster, JsonObject } from '../api/engine-cluster.js';
import type { Role } from '../api/names.js';
import { memoryPlan } from './memory-plan.js';
import { deepMerge, roleConfig } from './role-config.js';

/** The role's configuration file: as the spec gives it, with the memory settings the operator derives. */
export function engineConfig(cluster: EngineCluster, role: Role): JsonObject {
  return deepMerge(roleConfig(cluster.spec, role), memoryPlan(cluster.spec, role).config);
}

/** The file name of a role's configuration in the ConfigMap (and in /etc/engine). */
export function configFileName(role: Role): string {
  return `${role}.json`;
}

export function configFileText(cluster: EngineCluster, role: Role): string {
  return `${JSON.stringify(engineConfig(cluster, role), null, 2)}\n`;
}
