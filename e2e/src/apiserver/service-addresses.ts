// Cluster IPs and NodePorts for Services, as the real allocators hand them out: a free address of
// the service range (kept across updates, "None" for headless, none for ExternalName), and a free
// port of 30000-32767 for each port of a NodePort or LoadBalancer Service. A requested address or
// port is checked against the range and against the other Services.
import type { Api } from './api.js';
import { invalid, type FieldError } from './status.js';
import { nodePortRange } from '../net/network.js';
import type { JsonObject, KubeObject } from './types.js';

const servicesType = { group: '', resource: 'services', kind: 'Service' };

interface ServicePort extends JsonObject {
  port: number;
  nodePort: number;
}

function othersOf(api: Api, obj: KubeObject): KubeObject[] {
  return api.store
    .list('/services')
    .map((e) => e.object)
    .filter((s) => s.metadata.uid !== obj.metadata.uid);
}

function clusterIpOf(s: KubeObject): string | undefined {
  return (s.spec as JsonObject | undefined)?.clusterIP as string | undefined;
}

function nodePortsOf(s: KubeObject): number[] {
  const ports = ((s.spec as JsonObject | undefined)?.ports as ServicePort[] | undefined) ?? [];
  return ports.map((p) => p.nodePort).filter((p) => typeof p === 'number');
}

export function assignServiceAddresses(obj: KubeObject, api: Api, old?: KubeObject): void {
  const spec = obj.spec as JsonObject;
  const oldSpec = old?.spec as JsonObject | undefined;
  const others = othersOf(api, obj);
  const errors: FieldError[] = [];
  const range = api.network.services;
  if (spec.type === 'ExternalName') {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  } else {
    const requested = spec.clusterIP as string | undefined;
    if (oldSpec?.clusterIP && (requested === undefined || requested === '')) spec.clusterIP = oldSpec.clusterIP;
    else if (requested === undefined || requested === '') {
      const ip = range.allocate((candidate) => others.some((s) => clusterIpOf(s) === candidate));
      if (!ip)
        errors.push({
          field: 'spec.clusterIPs',
          reason: 'FieldValueInvalid',
          message: `Internal error: failed to allocate a serviceIP: range is full`,
        });
      else spec.clusterIP = ip;
    } else if (oldSpec?.clusterIP && requested !== oldSpec.clusterIP) {
      errors.push({
        field: 'spec.clusterIPs[0]',
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify([requested])}: may not change once set`,
      });
    } else if (!old && requested !== 'None') {
      if (!range.contains(requested))
        errors.push({
          field: 'spec.clusterIPs',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify([requested])}: failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${range.describe()}`,
        });
      else if (others.some((s) => clusterIpOf(s) === requested))
        errors.push({
          field: 'spec.clusterIPs',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify([requested])}: failed to allocate IP ${requested}: provided IP is already allocated`,
        });
    }
    if (spec.clusterIP !== undefined) spec.clusterIPs = [spec.clusterIP as string];
  }
  const wantsNodePorts = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  const ports = (spec.ports as ServicePort[] | undefined) ?? [];
  const oldPorts = (oldSpec?.ports as ServicePort[] | undefined) ?? [];
  const taken = new Set(others.flatMap(nodePortsOf));
  ports.forEach((p, i) => {
    if (!wantsNodePorts) {
      delete (p as JsonObject).nodePort;
      return;
    }
    if (p.nodePort === undefined || p.nodePort === 0) {
      const kept = oldPorts.find((o) => o.port === p.port && o.nodePort)?.nodePort;
      if (kept) p.nodePort = kept;
      else {
        for (let n = nodePortRange.first; n <= nodePortRange.last; n++)
          if (!taken.has(n) && !ports.some((q) => q.nodePort === n)) {
            p.nodePort = n;
            break;
          }
      }
    } else if (p.nodePort < nodePortRange.first || p.nodePort > nodePortRange.last) {
      errors.push({
        field: `spec.ports[${i}].nodePort`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${p.nodePort}: provided port is not in the valid range. The range of valid ports is ${nodePortRange.first}-${nodePortRange.last}`,
      });
    } else if (taken.has(p.nodePort)) {
      errors.push({
        field: `spec.ports[${i}].nodePort`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${p.nodePort}: provided port is already allocated`,
      });
    }
    taken.add(p.nodePort);
  });
  if (errors.length) throw invalid(servicesType, obj.metadata.name ?? '', errors);
}
