// The CRD's openAPIV3Schema as a JSON Schema ajv checks (x-kubernetes-* markers dropped, int-or-string
// spelled as anyOf), to hold the operator's defaults and the examples to what the API server enforces.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import YAML from 'yaml';

/** operator/dist/test/support -> the repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const crdFile = path.join(repoRoot, 'crds', 'engineclusters.engine.io.yaml');

function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-kubernetes-')) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toJsonSchema(s)])) : toJsonSchema(v);
  }
  return out;
}

export function crd(): any {
  return YAML.parse(fs.readFileSync(crdFile, 'utf8'));
}

/** A validator of whole EngineCluster objects that also applies the schema's defaults, as the API server does. */
export function clusterValidator(): ValidateFunction {
  const schema = crd().spec.versions[0].schema.openAPIV3Schema;
  const root = toJsonSchema(schema) as { properties: Record<string, unknown> };
  delete root.properties.metadata;
  return new Ajv({ strict: false, useDefaults: true, allErrors: true, validateFormats: false }).compile(root);
}

export function readYaml(file: string): any {
  return YAML.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
}
