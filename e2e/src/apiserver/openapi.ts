// The OpenAPI v3 documents kubectl reads before `apply` / `create` with --validate=strict (its
// default): per group-version, the PATCH operation of each kind declares the fieldValidation query
// parameter, so kubectl leaves validation to the server instead of validating against schemas.
// Schemas themselves are not published (kubectl explain does not work).
import { createHash } from 'node:crypto';
import type { Registry, ResourceType } from './registry.js';
import type { JsonObject } from './types.js';

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openApiRoot(registry: Registry): JsonObject {
  const paths: JsonObject = {};
  for (const [group, versions] of registry.groups())
    for (const version of versions.keys()) {
      const hash = createHash('sha256')
        .update(JSON.stringify(openApiGroupVersion(registry, group, version)))
        .digest('hex')
        .slice(0, 32)
        .toUpperCase();
      paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}` };
    }
  return { paths };
}

function objectPath(t: ResourceType): string {
  const base = `/${gvPath(t.group, t.version)}`;
  return t.namespaced ? `${base}/namespaces/{namespace}/${t.resource}/{name}` : `${base}/${t.resource}/{name}`;
}

export function openApiGroupVersion(registry: Registry, group: string, version: string): JsonObject | undefined {
  const types = registry.groups().get(group)?.get(version);
  if (!types) return undefined;
  const paths: JsonObject = {};
  for (const t of types) {
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    paths[objectPath(t)] = {
      patch: {
        operationId: `patch${t.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': gvk,
        parameters: [
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.3' },
    paths,
    components: { schemas: {} },
  } as unknown as JsonObject;
}
