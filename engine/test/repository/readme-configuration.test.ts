// The README's configuration table lists every key the configuration schema accepts, with the flag
// the server takes for it, so the documentation cannot fall behind the code.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SCHEMA } from '../../src/config/config-schema.js';
import { REPOSITORY_ROOT } from '../../scripts/shared-dir.js';

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
}

/** Dotted paths of the schema's settings (objects with properties are sections, not settings). */
function settingPaths(node: SchemaNode, prefix = ''): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    return child.type === 'object' && child.properties !== undefined ? settingPaths(child, path) : [path];
  });
}

describe('README configuration table', () => {
  it('has a row for every configuration key', () => {
    const readme = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
    const rows = new Set([...readme.matchAll(/^\| `([A-Za-z.]+)` \|/gm)].map((m) => m[1]));
    const missing = settingPaths(CONFIG_SCHEMA as SchemaNode).filter((path) => !rows.has(path));
    expect(missing).to.deep.equal([]);
  });
});
