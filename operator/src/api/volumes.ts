// Volumes the spec adds to the engine pods (core/v1 Volumes and VolumeMounts, passed through as
// other operators' CRDs do): spec.volumes and spec.volumeMounts go to every engine pod (a lake on a
// folder every node shares), spec.coordinator.* and spec.workers.* to that role's pods only. The
// operator's own volumes (the configuration, spec.security's files) keep their names and mount paths.
import type { V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import type { EngineClusterSpec, VolumesSpec } from './engine-cluster.js';
import type { Role } from './names.js';
import { securityMounts } from './security.js';

/** The volume of the configuration file, and where the engine container mounts it. */
export const configVolumeName = 'config';
export const configMountPath = '/etc/engine';

/** The operator's volumes and mount paths (whether or not this cluster uses them), with what each is for. */
const operatorVolumes: { volume: string; path: string; what: string }[] = [
  { volume: configVolumeName, path: configMountPath, what: 'the configuration file' },
  { ...securityMounts.tls, what: 'spec.security.tls' },
  { ...securityMounts.password, what: 'spec.security.authentication.password' },
  { ...securityMounts.jwtKey, what: 'spec.security.authentication.jwt' },
  { ...securityMounts.rules, what: 'spec.security.accessControl' },
];

function rolePart(spec: EngineClusterSpec, role: Role): VolumesSpec {
  return role === 'coordinator' ? spec.coordinator : spec.workers;
}

/** The volumes a role's pods get from the spec, and the engine container's mounts of them. */
export function roleVolumes(spec: EngineClusterSpec, role: Role): { volumes: V1Volume[]; volumeMounts: V1VolumeMount[] } {
  const own = rolePart(spec, role);
  return {
    volumes: [...(spec.volumes ?? []), ...(own.volumes ?? [])],
    volumeMounts: [...(spec.volumeMounts ?? []), ...(own.volumeMounts ?? [])],
  };
}

function normalized(mountPath: string): string {
  return mountPath.replace(/\/+$/, '') || '/';
}

/** What is wrong with one role's volumes: names taken twice or by the operator, mounts of volumes the pod lacks, paths taken twice or over the configuration. */
function roleProblems(spec: EngineClusterSpec, role: Role): string[] {
  const problems: string[] = [];
  const where = role === 'coordinator' ? 'spec.coordinator' : 'spec.workers';
  const own = rolePart(spec, role);
  const names = new Set<string>();
  for (const [from, list] of [
    ['spec', spec.volumes ?? []],
    [where, own.volumes ?? []],
  ] as const)
    for (const v of list) {
      const reserved = operatorVolumes.find((o) => o.volume === v.name);
      if (reserved) problems.push(`${from}.volumes: the name ${JSON.stringify(v.name)} is the operator's (${reserved.what})`);
      else if (names.has(v.name)) problems.push(`${from}.volumes: ${JSON.stringify(v.name)} is given twice for the ${role} pods`);
      names.add(v.name);
    }
  const shared = new Set((spec.volumes ?? []).map((v) => v.name));
  const paths = new Set<string>();
  for (const [from, list, known] of [
    ['spec', spec.volumeMounts ?? [], shared],
    [where, own.volumeMounts ?? [], names],
  ] as const)
    for (const m of list) {
      if (!known.has(m.name))
        problems.push(
          `${from}.volumeMounts: ${JSON.stringify(m.name)} is not a volume of ${from === 'spec' ? 'spec.volumes (mounts there are on every pod)' : `spec.volumes or ${where}.volumes`}`,
        );
      const path = normalized(m.mountPath);
      const reserved = operatorVolumes.find((o) => path === o.path || path.startsWith(`${o.path}/`));
      if (reserved) problems.push(`${from}.volumeMounts: ${m.mountPath} is where the operator mounts ${reserved.what}`);
      else if (paths.has(path)) problems.push(`${from}.volumeMounts: ${m.mountPath} is mounted twice in the ${role} container`);
      paths.add(path);
    }
  return problems;
}

/** What is wrong with the volumes of either role (a problem of spec.volumes is told once). */
export function volumeProblems(spec: EngineClusterSpec): string[] {
  return [...new Set([...roleProblems(spec, 'coordinator'), ...roleProblems(spec, 'worker')])];
}
