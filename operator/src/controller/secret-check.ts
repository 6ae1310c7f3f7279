// Whether the Secrets (and ConfigMaps) the pods read exist and hold their keys: the catalogs'
// secret-backed properties and spec.security's files. Without them the engine pods cannot start
// (Kubernetes refuses to create the container: CreateContainerConfigError, or leaves it
// ContainerCreating for a missing volume); the reconciler still makes the pods, so they start as soon
// as the object appears, and reports what is missing (a Warning Event and the Degraded condition).
// Only key names are looked at; no value is kept, logged or written anywhere.
import type { SecretProperty } from '../api/catalog-properties.js';
import type { RequiredKey } from '../api/security.js';

export type { RequiredKey };

/** The keys of a Secret or ConfigMap of the cluster's namespace, or undefined when there is no such object. */
export type KeysReader = (kind: RequiredKey['kind'], name: string) => Promise<ReadonlySet<string> | undefined>;

/** What is missing, one line per required key that is not there (empty when nothing is). */
export async function missingKeys(required: RequiredKey[], namespace: string, readKeys: KeysReader): Promise<string[]> {
  const objects = [...new Set(required.map((r) => `${r.kind}/${r.name}`))];
  const keys = new Map(
    await Promise.all(
      objects.map(async (id) => {
        const [kind, name] = id.split('/') as [RequiredKey['kind'], string];
        return [id, await readKeys(kind, name)] as const;
      }),
    ),
  );
  const missing: string[] = [];
  for (const r of required) {
    const found = keys.get(`${r.kind}/${r.name}`);
    if (!found) missing.push(`${r.what}: ${r.kind} ${namespace}/${r.name} not found`);
    else if (!found.has(r.key)) missing.push(`${r.what}: ${r.kind} ${namespace}/${r.name} has no key ${JSON.stringify(r.key)}`);
  }
  return missing;
}

/** The keys the catalogs' secret-backed properties need. */
export function catalogRequiredKeys(properties: SecretProperty[]): RequiredKey[] {
  return properties.map((p) => ({
    kind: 'Secret',
    name: p.secretKeyRef.name,
    key: p.secretKeyRef.key,
    what: `catalog ${p.catalog}, property ${p.property}`,
  }));
}

/** The keys of Secrets only (the catalogs' properties). */
export function missingSecretKeys(
  properties: SecretProperty[],
  namespace: string,
  readKeys: (name: string) => Promise<ReadonlySet<string> | undefined>,
): Promise<string[]> {
  return missingKeys(catalogRequiredKeys(properties), namespace, (_kind, name) => readKeys(name));
}
