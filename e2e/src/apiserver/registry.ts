// The resource types the server serves: built-in kinds at start, CRDs' kinds as they are created.
import type { JsonObject, KubeObject } from './types.js';

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  /** A JSONPath such as .spec.replicas (as in additionalPrinterColumns). */
  jsonPath: string;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural, lowercase: "deployments". */
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Whether spec and status are written through separate endpoints. */
  statusSubresource: boolean;
  scale?: ScaleSubresource;
  /** Extra table columns after NAME (an AGE column is always last unless listed). */
  printerColumns?: PrinterColumn[];
  /** Validates and defaults an object in place (CRD schemas); throws ApiError(422). */
  admit?: (obj: JsonObject) => void;
  /** Pods and custom resources answer DELETE with the object, the rest with a Status. */
  returnDeletedObject?: boolean;
  /** Set for the kinds a CRD serves. */
  crdName?: string;
  /** Another version of a kind stored in one shape: converts request bodies in and answers out. */
  conversion?: {
    toStorage(obj: KubeObject, stored?: KubeObject): KubeObject;
    fromStorage(obj: KubeObject): KubeObject;
  };
  /** The verbs when not all of `verbs` (the read-only metrics API). */
  verbs?: string[];
}

export const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function apiVersionOf(t: { group: string; version: string }): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

export class Registry {
  private readonly types = new Map<string, ResourceType>();

  private static key(group: string, version: string, resource: string): string {
    return `${group}/${version}/${resource}`;
  }

  add(t: ResourceType): void {
    this.types.set(Registry.key(t.group, t.version, t.resource), t);
  }

  remove(group: string, version: string, resource: string): void {
    this.types.delete(Registry.key(group, version, resource));
  }

  get(group: string, version: string, resource: string): ResourceType | undefined {
    return this.types.get(Registry.key(group, version, resource));
  }

  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    for (const t of this.types.values()) if (apiVersionOf(t) === apiVersion && t.kind === kind) return t;
    return undefined;
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  /** Group → versions (in registration order) → types. */
  groups(): Map<string, Map<string, ResourceType[]>> {
    const groups = new Map<string, Map<string, ResourceType[]>>();
    for (const t of this.types.values()) {
      const versions = groups.get(t.group) ?? new Map<string, ResourceType[]>();
      groups.set(t.group, versions);
      const list = versions.get(t.version) ?? [];
      versions.set(t.version, list);
      list.push(t);
    }
    return groups;
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.all().some((t) => t.group === group && t.version === version);
  }
}
