// How much memory an engine container gets, and the settings that keep the engine within it. An
// engine node holds its process to a resident limit that follows from its settings (node memory,
// worker threads, a tpch catalog: engine/memory-budget); its container gets that and a margin, as
// both request and limit, so that a node keeping to its settings is never OOM-killed:
//  - with memory.nodeMemory set, the container's memory follows from it; a memory limit given in
//    the spec below that is a problem of the spec (the pod would be killed under load);
//  - with only a memory limit given, the largest node memory whose container fits it is written;
//  - with neither, nothing is sized (the engine takes its defaults from what it sees).
// When sized, the main thread's heap the node memory needs goes into NODE_OPTIONS, and the worker
// threads (task.maxWorkerThreads, each with its share of the node memory) follow the container's
// CPU (its limit, else its request; DEFAULT_WORKER_THREADS without either) unless configured. Every
// engine container gets the allocator settings that let freed memory go back to the system.
import type { V1EnvVar } from '@kubernetes/client-node';
import { parseDataSize } from 'engine/data-size';
import { ALLOCATOR_ENV, SEMI_SPACE_FLAG, containerMemoryBytes, heapNeededFor, type NodeMemorySettings } from 'engine/memory-budget';
import type { EngineClusterSpec, JsonObject, ResourceRequirements } from '../api/engine-cluster.js';
import type { Role } from '../api/names.js';
import { mebibytes, parseQuantity } from '../api/quantity.js';
import { isObject, roleConfig } from './role-config.js';

const MB = 2 ** 20;
/** The worker threads of a node whose container states no CPU (the engine's task_concurrency default). */
export const DEFAULT_WORKER_THREADS = 2;

export interface MemoryPlan {
  /** What the operator adds to the role's configuration file. */
  config: JsonObject;
  env: V1EnvVar[];
  /** The container's resources, memory request and limit included when sized. */
  resources?: ResourceRequirements;
  /** What is wrong with the spec's memory (empty when nothing is). */
  problems: string[];
}

/** memory.nodeMemory of a configuration, in bytes (undefined when not set, or not a size the engine would take). */
function configuredNodeMemory(config: JsonObject): number | undefined {
  const value = isObject(config.memory) ? config.memory.nodeMemory : undefined;
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? parseDataSize(value) : undefined;
}

function configuredWorkerThreads(config: JsonObject): number | undefined {
  const value = isObject(config.task) ? config.task.maxWorkerThreads : undefined;
  return typeof value === 'number' ? value : undefined;
}

/** Whether the node may read a tpch catalog (the engine's default catalogs include one). */
function hasTpch(config: JsonObject): boolean {
  if (!Array.isArray(config.catalogs)) return true;
  return config.catalogs.some((c) => isObject(c) && c.connector === 'tpch');
}

function cpuOf(resources: ResourceRequirements | undefined): number | undefined {
  const cpu = resources?.limits?.cpu ?? resources?.requests?.cpu;
  const cores = cpu === undefined ? undefined : parseQuantity(cpu);
  return cores === undefined ? undefined : Math.max(1, Math.ceil(cores));
}

/** The largest node memory (whole MB) whose container fits `bytes`, or undefined when none does. */
function nodeMemoryFitting(bytes: number, settings: Omit<NodeMemorySettings, 'nodeMemoryBytes'>): number | undefined {
  let low = 0;
  let high = Math.floor(bytes / MB);
  if (containerMemoryBytes({ ...settings, nodeMemoryBytes: MB }) > bytes) return undefined;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (containerMemoryBytes({ ...settings, nodeMemoryBytes: mid * MB }) <= bytes) low = mid;
    else high = mid - 1;
  }
  return low * MB;
}

const allocatorEnv: V1EnvVar[] = Object.entries(ALLOCATOR_ENV).map(([name, value]) => ({ name, value }));

export function memoryPlan(spec: EngineClusterSpec, role: Role): MemoryPlan {
  const config = roleConfig(spec, role);
  const resources = role === 'coordinator' ? spec.coordinator.resources : spec.workers.resources;
  const where = `spec.${role === 'coordinator' ? 'coordinator' : 'workers'}`;
  const plan: MemoryPlan = { config: {}, env: [...allocatorEnv], resources, problems: [] };
  const limitText = resources?.limits?.memory;
  const limit = limitText === undefined ? undefined : parseQuantity(limitText);
  let nodeMemoryBytes = configuredNodeMemory(config);
  if (nodeMemoryBytes === undefined && limit === undefined) return plan;

  const configuredThreads = configuredWorkerThreads(config);
  const workerThreads = configuredThreads ?? cpuOf(resources) ?? DEFAULT_WORKER_THREADS;
  const settings = { workerThreads, tpch: hasTpch(config) };
  if (nodeMemoryBytes === undefined) {
    nodeMemoryBytes = nodeMemoryFitting(limit!, settings);
    if (nodeMemoryBytes === undefined) {
      plan.problems.push(
        `${where}.resources.limits.memory (${limitText}) is below the ${mebibytes(containerMemoryBytes({ ...settings, nodeMemoryBytes: MB }))} the engine needs for any node memory`,
      );
      return plan;
    }
    plan.config = { memory: { nodeMemory: `${nodeMemoryBytes / MB}MB` } };
  }
  if (configuredThreads === undefined) plan.config = { ...plan.config, task: { maxWorkerThreads: workerThreads } };

  const needed = containerMemoryBytes({ ...settings, nodeMemoryBytes });
  if (limit !== undefined && limit < needed) {
    plan.problems.push(
      `${where}.resources.limits.memory (${limitText}) is below the ${mebibytes(needed)} that memory.nodeMemory ${Math.round(nodeMemoryBytes / MB)}MB needs ` +
        `(with ${workerThreads} worker threads${settings.tpch ? ' and the tpch catalog' : ''}): raise the limit or lower memory.nodeMemory`,
    );
    return plan;
  }
  // A request given above what is needed raises the limit with it (a request may not exceed its limit).
  const requestText = resources?.requests?.memory;
  const request = requestText === undefined ? undefined : parseQuantity(requestText);
  const memoryLimit = limitText ?? (request !== undefined && request > needed ? requestText! : mebibytes(needed));
  plan.resources = {
    requests: { ...resources?.requests, memory: requestText ?? memoryLimit },
    limits: { ...resources?.limits, memory: memoryLimit },
  };
  plan.env.push({
    name: 'NODE_OPTIONS',
    value: `${SEMI_SPACE_FLAG} --max-old-space-size=${Math.ceil(heapNeededFor(nodeMemoryBytes) / MB)}`,
  });
  return plan;
}

/** What is wrong with the memory of either role. */
export function memoryProblems(spec: EngineClusterSpec): string[] {
  return [...memoryPlan(spec, 'coordinator').problems, ...memoryPlan(spec, 'worker').problems];
}
