// Whether the Secrets the catalogs' properties come from exist and hold their keys. Without them the
// engine pods cannot start (Kubernetes refuses to create the container: CreateContainerConfigError);
// the reconciler still makes the pods, so they start as soon as the Secret appears, and reports what
// is missing (a Warning Event and the Degraded condition). Only key names are looked at; no value is
// kept, logged or written anywhere.
import type { SecretProperty } from "../api/catalog-properties.js";

/** The keys of a Secret of the cluster's namespace, or undefined when there is no such Secret. */
export type SecretKeysReader = (name: string) => Promise<ReadonlySet<string> | undefined>;

/** What is missing, one line per secret-backed property that cannot be set (empty when nothing is). */
export async function missingSecretKeys(properties: SecretProperty[], namespace: string, readKeys: SecretKeysReader): Promise<string[]> {
  const names = [...new Set(properties.map((p) => p.secretKeyRef.name))];
  const keys = new Map(await Promise.all(names.map(async (name) => [name, await readKeys(name)] as const)));
  const missing: string[] = [];
  for (const p of properties) {
    const { name, key } = p.secretKeyRef;
    const found = keys.get(name);
    const where = `catalog ${p.catalog}, property ${p.property}`;
    if (!found) missing.push(`${where}: Secret ${namespace}/${name} not found`);
    else if (!found.has(key)) missing.push(`${where}: Secret ${namespace}/${name} has no key ${JSON.stringify(key)}`);
  }
  return missing;
}
