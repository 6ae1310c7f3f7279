// A container's environment as the kubelet builds it: the image's ENV, then the Services of the
// namespace (FOO_SERVICE_HOST, ... when enableServiceLinks), then envFrom, then env with
// valueFrom (fieldRef, configMapKeyRef, secretKeyRef) and $(VAR) expansion of earlier variables.
// A missing ConfigMap, Secret or key that is not optional is a CreateContainerConfigError.
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { kinds, type Objects } from '../cluster/objects.js';
import { fieldRefValue, type PodAddresses } from './downward.js';
import { configMapData, secretData } from './volumes.js';
import type { Container, KeySelector, PodSpec } from './pod-spec.js';

export class ContainerConfigError extends Error {}

/** $(VAR) becomes VAR's value when defined; $$(VAR) is the literal $(VAR); others stay as written. */
export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\(([^()]*)\)/g, (all, name: string | undefined) => {
    if (all === '$$') return '$';
    return name !== undefined && Object.prototype.hasOwnProperty.call(env, name) ? env[name] : all;
  });
}

const envName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function serviceEnv(services: KubeObject[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as { clusterIP?: string; ports?: { name?: string; port: number; protocol?: string }[] };
    if (!spec.clusterIP || spec.clusterIP === 'None' || !spec.ports?.length) continue;
    const prefix = svc.metadata.name!.toUpperCase().replace(/-/g, '_');
    const ip = spec.clusterIP;
    env[`${prefix}_SERVICE_HOST`] = ip;
    env[`${prefix}_SERVICE_PORT`] = String(spec.ports[0].port);
    for (const p of spec.ports) if (p.name) env[`${prefix}_SERVICE_PORT_${p.name.toUpperCase().replace(/-/g, '_')}`] = String(p.port);
    const first = spec.ports[0];
    env[`${prefix}_PORT`] = `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${first.port}`;
    for (const p of spec.ports) {
      const proto = (p.protocol ?? 'TCP').toLowerCase();
      const base = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      env[base] = `${proto}://${ip}:${p.port}`;
      env[`${base}_PROTO`] = proto;
      env[`${base}_PORT`] = String(p.port);
      env[`${base}_ADDR`] = ip;
    }
  }
  return env;
}

export interface EnvContext {
  pod: KubeObject;
  objects: Objects;
  addresses: PodAddresses;
  /** The image's ENV and what the kubelet adds for every container (PATH, HOME, KUBECONFIG). */
  base: Record<string, string>;
}

function keyRef(ctx: EnvContext, kind: 'configmap' | 'secret', ref: KeySelector): string | undefined {
  const ns = ctx.pod.metadata.namespace!;
  const data =
    kind === 'configmap'
      ? configMapData(ctx.objects.get(kinds.configMaps, ns, ref.name))
      : secretData(ctx.objects.get(kinds.secrets, ns, ref.name));
  if (!data) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`${kind} ${JSON.stringify(ref.name)} not found`);
  }
  const value = data.get(ref.key);
  if (value === undefined && !ref.optional)
    throw new ContainerConfigError(
      `couldn't find key ${ref.key} in ${kind === 'configmap' ? 'ConfigMap' : 'Secret'} ${ctx.pod.metadata.namespace}/${ref.name}`,
    );
  return value?.toString('utf8');
}

export function containerEnv(ctx: EnvContext, container: Container): Record<string, string> {
  const spec = ctx.pod.spec as unknown as PodSpec;
  const ns = ctx.pod.metadata.namespace!;
  const env: Record<string, string> = { ...ctx.base };
  if (spec.enableServiceLinks !== false) Object.assign(env, serviceEnv(ctx.objects.list(kinds.services, ns)));
  for (const from of container.envFrom ?? []) {
    const kind = from.configMapRef ? 'configmap' : 'secret';
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const data =
      kind === 'configmap'
        ? configMapData(ctx.objects.get(kinds.configMaps, ns, ref.name))
        : secretData(ctx.objects.get(kinds.secrets, ns, ref.name));
    if (!data) {
      if (ref.optional) continue;
      throw new ContainerConfigError(`${kind} ${JSON.stringify(ref.name)} not found`);
    }
    for (const [k, v] of data) if (envName.test((from.prefix ?? '') + k)) env[(from.prefix ?? '') + k] = v.toString('utf8');
  }
  for (const e of container.env ?? []) {
    const from = e.valueFrom;
    if (!from) {
      env[e.name] = expand(e.value ?? '', env);
      continue;
    }
    let value: string | undefined;
    if (from.fieldRef) {
      value = fieldRefValue(ctx.pod, from.fieldRef.fieldPath, ctx.addresses);
      if (value === undefined) throw new ContainerConfigError(`unsupported fieldPath ${from.fieldRef.fieldPath} in env ${e.name}`);
    } else if (from.configMapKeyRef) value = keyRef(ctx, 'configmap', from.configMapKeyRef);
    else if (from.secretKeyRef) value = keyRef(ctx, 'secret', from.secretKeyRef);
    else
      throw new ContainerConfigError(
        `env ${e.name}: valueFrom ${Object.keys(from as JsonObject).join(',')} is not supported by the process kubelet (fieldRef, configMapKeyRef and secretKeyRef are)`,
      );
    if (value !== undefined) env[e.name] = value;
  }
  return env;
}
