// Validates manifests as a real API server would before storing them: built-in kinds against the
// official Kubernetes OpenAPI schemas (kubernetes-models), custom kinds against their CRD's
// openAPIV3Schema (ajv). The test API server validates neither, so a chart test needs this.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { openApiFormats, toJsonSchema } from '../../src/apiserver/crd.js';
import { isPlainObject, type JsonObject } from '../../src/apiserver/types.js';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string };
  [field: string]: unknown;
}

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: object): { validate(): void };
}

/**
 * Kinds of well-known CRDs a chart may render (beside the built-in kinds), by API group: the
 * kubernetes-models package that holds their schemas (prometheus-operator's ServiceMonitor, ...).
 */
const CRD_MODEL_PACKAGES: Readonly<Record<string, string>> = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

/** The kubernetes-models class of a kind: its module is kubernetes-models/<apiVersion>/<Kind> (core kinds: v1/<Kind>), or of the package of its CRD's group. */
async function modelOf(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  let module: Record<string, unknown>;
  const crdPackage = CRD_MODEL_PACKAGES[apiVersion.split('/')[0]!];
  try {
    module = (await import(`${crdPackage ?? 'kubernetes-models'}/${apiVersion}/${kind}`)) as Record<string, unknown>;
  } catch (e) {
    // No such module: a kind kubernetes-models does not know.
    if (['ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_MODULE_NOT_FOUND'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
  const model = module[kind] as ModelClass | undefined;
  // Nested types (e.g. v1/Affinity) have modules too, but no apiVersion/kind of their own.
  return model?.apiVersion === apiVersion && model.kind === kind ? model : undefined;
}

/** A CRD's schema with every object that names its properties closed to others (unless it preserves unknown fields), as kubectl's strict field validation reports them. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v),
    ]),
  );
  if (
    isPlainObject(schema.properties) &&
    schema.additionalProperties === undefined &&
    schema['x-kubernetes-preserve-unknown-fields'] !== true
  )
    out.additionalProperties = false;
  return out;
}

const nameOf = (m: Manifest) => `${m.kind} ${m.metadata?.name ?? '(no name)'}`;

/** ajv's errors as kubernetes-models words them ("data/spec/x must be integer"), naming an unknown field. */
const errorsText = (errors: ErrorObject[]) =>
  errors
    .filter((e) => e.keyword !== 'anyOf')
    .map(
      (e) =>
        `data${e.instancePath} ${e.message}${e.keyword === 'additionalProperties' ? `: ${(e.params as { additionalProperty: string }).additionalProperty}` : ''}`,
    )
    .join(', ');

/** Validates a part of an object that is a core/v1 type (Volume, VolumeMount, ...), as kubernetes-models has it; throws naming `where`. */
export async function validateCoreType(type: string, value: unknown, where: string): Promise<void> {
  const module = (await import(`kubernetes-models/v1/${type}`)) as Record<string, new (data: object) => { validate(): void }>;
  try {
    new module[type]!(value as object).validate();
  } catch (e) {
    throw new Error(`${where} is not a valid ${type}: ${(e as Error).message}`);
  }
}

/** Validates objects of built-in kinds and of the kinds the given CRDs define; any other kind is an error. */
export class ManifestValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, formats: openApiFormats });
  /** "group/version kind" → the validator of that version's schema. */
  private readonly custom = new Map<string, ValidateFunction>();

  /** Serves the kinds of a CustomResourceDefinition (itself validated first). */
  async addCrd(crd: Manifest): Promise<void> {
    await this.validate(crd);
    const spec = crd.spec as {
      group: string;
      names: { kind: string };
      versions: { name: string; schema?: { openAPIV3Schema?: JsonObject } }[];
    };
    for (const v of spec.versions) {
      if (!v.schema?.openAPIV3Schema) throw new Error(`${nameOf(crd)}: version ${v.name} has no openAPIV3Schema`);
      this.custom.set(
        `${spec.group}/${v.name} ${spec.names.kind}`,
        this.ajv.compile(toJsonSchema(closed(v.schema.openAPIV3Schema)) as object),
      );
    }
  }

  /** Throws an error naming the object and every field the schema refuses. */
  async validate(m: Manifest): Promise<void> {
    if (typeof m?.apiVersion !== 'string' || typeof m.kind !== 'string')
      throw new Error(`not a Kubernetes object (no apiVersion or kind): ${JSON.stringify(m)}`);
    const custom = this.custom.get(`${m.apiVersion} ${m.kind}`);
    if (custom) {
      if (!custom(m)) throw new Error(`${nameOf(m)} is invalid: ${errorsText(custom.errors ?? [])}`);
      return;
    }
    const model = await modelOf(m.apiVersion, m.kind);
    if (!model) throw new Error(`${nameOf(m)}: unknown kind ${m.kind} of ${m.apiVersion}`);
    try {
      new model(m).validate();
    } catch (e) {
      throw new Error(`${nameOf(m)} is invalid: ${(e as Error).message}`);
    }
  }
}
