// CustomResourceDefinitions: creating one serves its kind in every served version; objects are
// pruned, defaulted and validated against the version's openAPIV3Schema (with ajv); deleting one
// deletes its objects first (the customresourcecleanup finalizer), as the real server does.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { type Api, bucketOf } from './api.js';
import type { PrinterColumn, ResourceType } from './registry.js';
import { invalid, type FieldError } from './status.js';
import { clone, isPlainObject, type JsonObject, type KubeObject } from './types.js';
import { now } from './names.js';

const crdType = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: JsonObject };
  subresources?: { status?: object; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: PrinterColumn[];
}

interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  versions: CrdVersion[];
}

/** The schema as ajv reads it: int-or-string and nullable spelled in JSON Schema. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-kubernetes-') || k === 'nullable') continue;
    out[k] =
      k === 'properties' || k === 'patternProperties'
        ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toJsonSchema(s)]))
        : toJsonSchema(v);
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** Drops fields the structural schema does not name (unless it preserves unknown fields). */
function prune(value: unknown, schema: JsonObject | undefined): void {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (Array.isArray(value)) {
    for (const item of value) prune(item, schema.items as JsonObject | undefined);
    return;
  }
  if (!isPlainObject(value)) return;
  const props = schema.properties as Record<string, JsonObject> | undefined;
  const additional = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    if (props && key in props) prune(value[key], props[key]);
    else if (isPlainObject(additional)) prune(value[key], additional as JsonObject);
    else if (additional !== true) delete value[key];
  }
}

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty);
  return path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function valueText(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
}

function fieldError(e: ErrorObject, obj: unknown): FieldError {
  const field = fieldOf(e);
  let value: unknown = obj;
  for (const p of e.instancePath.split('/').slice(1)) value = (value as Record<string, unknown>)?.[p];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { field, reason: 'FieldValueRequired', message: 'Required value' };
    case 'type':
      return {
        field,
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: ${valueText(typeof value)}: ${field} in body must be of type ${p.type}: ${valueText(value)}`,
      };
    case 'enum':
      return {
        field,
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${valueText(value)}: supported values: ${(p.allowedValues as unknown[]).map(valueText).join(', ')}`,
      };
    case 'minimum':
      return {
        field,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${valueText(value)}: ${field} in body should be greater than or equal to ${p.limit}`,
      };
    case 'maximum':
      return {
        field,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${valueText(value)}: ${field} in body should be less than or equal to ${p.limit}`,
      };
    case 'pattern':
      return {
        field,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${valueText(value)}: ${field} in body should match '${p.pattern}'`,
      };
    default:
      return {
        field,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${valueText(value)}: ${field} in body ${e.message ?? 'is invalid'}`,
      };
  }
}

/** The OpenAPI formats CRDs use (controller-gen writes date-time for a metav1.Time): date-time checked, the rest known. */
export const openApiFormats = {
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i,
  date: /^\d{4}-\d\d-\d\d$/,
  int32: true,
  int64: true,
  float: true,
  double: true,
  byte: true,
  'int-or-string': true,
} as const;

export class CrdController {
  private readonly ajv = new Ajv({ strict: false, useDefaults: true, allErrors: true, formats: openApiFormats });
  /** CRD name → the resource types it registered. */
  private readonly served = new Map<string, ResourceType[]>();

  constructor(private readonly api: Api) {
    api.store.subscribe((event) => {
      if (event.bucket !== bucketOf(crdType)) return;
      // Serving starts synchronously, so a request right after the CRD's creation finds the kind.
      if (event.type === 'DELETED') this.unserve(event.object.metadata.name!);
      else this.serve(event.object);
      setImmediate(() => this.reconcile(event.object.metadata.name!));
    });
  }

  private validatorFor(schema: JsonObject | undefined): { validate?: ValidateFunction; schema?: JsonObject } {
    if (!schema) return {};
    const root = clone(schema);
    // metadata is validated by the server itself, as in the real apiextensions-apiserver.
    if (isPlainObject(root.properties)) delete (root.properties as JsonObject).metadata;
    return { validate: this.ajv.compile(toJsonSchema(root) as object), schema };
  }

  private serve(crd: KubeObject): void {
    const spec = crd.spec as unknown as CrdSpec;
    const name = crd.metadata.name!;
    this.unserve(name);
    const types: ResourceType[] = [];
    for (const v of spec.versions ?? []) {
      if (!v.served) continue;
      const { validate, schema } = this.validatorFor(v.schema?.openAPIV3Schema);
      const t: ResourceType = {
        group: spec.group,
        version: v.name,
        resource: spec.names.plural,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        kind: spec.names.kind,
        namespaced: spec.scope === 'Namespaced',
        shortNames: spec.names.shortNames,
        categories: spec.names.categories,
        statusSubresource: v.subresources?.status !== undefined,
        scale: v.subresources?.scale,
        printerColumns: v.additionalPrinterColumns,
        returnDeletedObject: true,
        crdName: name,
        admit: (obj) => {
          const { metadata, apiVersion, kind } = obj;
          // metadata is the server's (a schema's `metadata: {type: object}` must not prune its fields).
          delete obj.metadata;
          prune(obj, schema);
          Object.assign(obj, { metadata, apiVersion, kind });
          if (validate && !validate(obj)) {
            const errors = (validate.errors ?? [])
              .filter((e) => e.keyword !== 'anyOf' && !e.instancePath.startsWith('/metadata'))
              .map((e) => fieldError(e, obj));
            if (errors.length) throw invalid(t, String((metadata as JsonObject).name), errors);
          }
        },
      };
      this.api.registry.add(t);
      types.push(t);
    }
    this.served.set(name, types);
  }

  private unserve(name: string): void {
    for (const t of this.served.get(name) ?? []) this.api.registry.remove(t.group, t.version, t.resource);
    this.served.delete(name);
  }

  private crdResourceType(): ResourceType {
    return this.api.registry.get(crdType.group, 'v1', crdType.resource)!;
  }

  /** Status conditions, the cleanup finalizer, and the cleanup itself once deleted. */
  private reconcile(name: string): void {
    const t = this.crdResourceType();
    const crd = this.api.store.get(bucketOf(crdType), undefined, name);
    if (!crd) return;
    const spec = crd.spec as unknown as CrdSpec;
    if (crd.metadata.deletionTimestamp) {
      const served = this.served.get(name)?.[0];
      if (served) {
        const bucket = bucketOf(served);
        for (const { object } of this.api.store.list(bucket))
          if (!object.metadata.deletionTimestamp) this.api.delete(served, object.metadata.namespace, object.metadata.name!);
        if (this.api.store.list(bucket).length > 0) return;
      }
      crd.metadata.finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== cleanupFinalizer);
      this.api.replace(t, crd);
      return;
    }
    if (!(crd.metadata.finalizers ?? []).includes(cleanupFinalizer)) {
      crd.metadata.finalizers = [...(crd.metadata.finalizers ?? []), cleanupFinalizer];
      this.api.replace(t, crd);
      return;
    }
    const time = now();
    const status = {
      conditions: [
        { type: 'NamesAccepted', status: 'True', lastTransitionTime: time, reason: 'NoConflicts', message: 'no conflicts found' },
        {
          type: 'Established',
          status: 'True',
          lastTransitionTime: time,
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
      ],
      acceptedNames: {
        ...spec.names,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        listKind: spec.names.listKind ?? `${spec.names.kind}List`,
      },
      storedVersions: spec.versions.filter((v) => v.storage).map((v) => v.name),
    };
    const old = crd.status as JsonObject | undefined;
    if (
      old &&
      JSON.stringify(old.acceptedNames) === JSON.stringify(status.acceptedNames) &&
      JSON.stringify(old.storedVersions) === JSON.stringify(status.storedVersions)
    )
      return;
    crd.status = status;
    this.api.replace(t, crd, 'status');
  }
}
