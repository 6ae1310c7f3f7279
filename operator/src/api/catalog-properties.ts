// Catalog properties whose values live in Secrets. A property given as
// `{valueFrom: {secretKeyRef: {name, key}}}` reaches the engine pods as an environment variable (its
// name derived from the catalog and the property, so it is stable and the same on every pod), and
// the configuration file says `${ENV:THAT_NAME}`, which the engine replaces when it starts: the
// secret's value is never in the ConfigMap, the status or the operator's log. A missing Secret or
// key keeps the pods from starting (the kubelet's CreateContainerConfigError); the reconciler reports
// it (secret-check.ts).
import {
  CONNECTORS,
  type CatalogPropertyValue,
  type CatalogSpec,
  type PropertyFromSecret,
  type SecretKeySelector,
} from './engine-cluster.js';

/** One property of one catalog that comes from a Secret. */
export interface SecretProperty {
  catalog: string;
  property: string;
  /** The environment variable the pods get it in. */
  envName: string;
  secretKeyRef: SecretKeySelector;
}

/** A Secret key: what Kubernetes accepts as a key of a Secret's data. */
const secretKeyPattern = /^[-._a-zA-Z0-9]+$/;
/** A Secret's name: a DNS subdomain. */
const secretNamePattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** ENGINE_CATALOG_<CATALOG>_<PROPERTY>, upper case, every character but letters and digits as `_` (the engine's `${ENV:...}` takes [A-Za-z_][A-Za-z0-9_]*). */
export function secretEnvName(catalog: string, property: string): string {
  return `ENGINE_CATALOG_${catalog}_${property}`.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

export function isFromSecret(value: CatalogPropertyValue): value is PropertyFromSecret {
  return typeof value === 'object' && value !== null && 'valueFrom' in value;
}

/** Every secret-backed property of the catalogs, in catalog then property order. */
export function secretProperties(catalogs: Record<string, CatalogSpec>): SecretProperty[] {
  const out: SecretProperty[] = [];
  for (const [catalog, spec] of Object.entries(catalogs).sort(([a], [b]) => a.localeCompare(b)))
    for (const [property, value] of Object.entries(spec.properties ?? {}).sort(([a], [b]) => a.localeCompare(b)))
      if (isFromSecret(value))
        out.push({ catalog, property, envName: secretEnvName(catalog, property), secretKeyRef: value.valueFrom.secretKeyRef });
  return out;
}

/** The properties as the configuration file gives them: a secret-backed one as a reference to its variable. */
export function configProperties(catalog: string, properties: Record<string, CatalogPropertyValue>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(properties).map(([property, value]) => [
      property,
      isFromSecret(value) ? `\${ENV:${secretEnvName(catalog, property)}}` : value,
    ]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with a property's value: neither a string nor exactly {valueFrom: {secretKeyRef: {name, key}}}. */
function valueProblem(where: string, value: unknown): string | undefined {
  if (typeof value === 'string') return undefined;
  const shape = `must be a string or {valueFrom: {secretKeyRef: {name, key}}}`;
  if (!isRecord(value) || Object.keys(value).length !== 1 || !isRecord(value.valueFrom)) return `${where} ${shape}`;
  const from = value.valueFrom;
  if (Object.keys(from).length !== 1 || !isRecord(from.secretKeyRef)) return `${where}.valueFrom ${shape}`;
  const { name, key, ...rest } = from.secretKeyRef;
  if (Object.keys(rest).length)
    return `${where}.valueFrom.secretKeyRef has fields other than name and key: ${Object.keys(rest).join(', ')}`;
  if (typeof name !== 'string' || !secretNamePattern.test(name))
    return `${where}.valueFrom.secretKeyRef.name ${JSON.stringify(name ?? null)} is not a Secret name`;
  if (typeof key !== 'string' || !secretKeyPattern.test(key))
    return `${where}.valueFrom.secretKeyRef.key ${JSON.stringify(key ?? null)} is not a Secret key (letters, digits, -, _ and .)`;
  return undefined;
}

/** What is wrong with the catalogs that the schema may have let through: connectors, property values, variable names that clash. */
export function catalogProblems(catalogs: Record<string, CatalogSpec>): string[] {
  const problems: string[] = [];
  for (const [catalog, spec] of Object.entries(catalogs)) {
    if (!(CONNECTORS as readonly string[]).includes(spec.connector))
      problems.push(`spec.catalogs.${catalog}.connector ${JSON.stringify(spec.connector)} is not one of ${CONNECTORS.join(', ')}`);
    for (const [property, value] of Object.entries(spec.properties ?? {})) {
      const problem = valueProblem(`spec.catalogs.${catalog}.properties.${property}`, value);
      if (problem) problems.push(problem);
    }
  }
  if (problems.length) return problems;
  const byEnv = new Map<string, SecretProperty>();
  for (const p of secretProperties(catalogs)) {
    const other = byEnv.get(p.envName);
    if (other)
      problems.push(
        `spec.catalogs: ${other.catalog}.${other.property} and ${p.catalog}.${p.property} would both be passed in the environment variable ${p.envName}: rename one`,
      );
    byEnv.set(p.envName, p);
  }
  return problems;
}
