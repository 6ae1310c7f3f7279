// The build's standalone validators (spi/validators.ts) must judge exactly as ajv compiling the
// schema at run time does, and a built node must load them rather than compile.

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule, { type ValidateFunction } from 'ajv';
import '../../src/server/engine-server.js';
import { precompiledValidatorsCode } from '../../src/spi/validator-code.js';
import { validatorKey, validatorSources } from '../../src/spi/validators.js';

const Ajv = AjvModule.default;
const SRC_DIST = fileURLToPath(new URL('../../src/', import.meta.url));

/** Values of every JSON kind, and objects the engine's schemas refuse in different ways. */
const SAMPLES: unknown[] = [
  null,
  1,
  -1,
  'text',
  [],
  [1, 'a'],
  {},
  { unknown: 1 },
  { type: 'bigint' },
  { kind: 'nope' },
  { http: { port: 'x' } },
  { memory: { nodeMemory: 'lots' } },
  { nodeId: 'n1', services: [] },
  { groups: [{ name: 'g' }] },
];

function verdict(validate: ValidateFunction, value: unknown): unknown {
  const valid = validate(value);
  // As JSON: the standalone code's copies of the schema hold what the originals hold, not their identity.
  return JSON.parse(JSON.stringify({ valid, errors: valid ? null : validate.errors }));
}

describe('precompiled validators', () => {
  const sources = validatorSources();

  it('has every schema the node checks with, from its modules', () => {
    // The task request, task info, node status, announcements, resource groups, dynamic filters, connectors' splits and handles.
    expect(sources.length).to.be.at.least(14);
  });

  it('judges every sample as ajv compiling the schema now does, errors and all', () => {
    // Beside this test in dist, where the code's require of ajv's runtime resolves as it does for the build's file.
    const dir = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), 'validators-'));
    try {
      const file = join(dir, 'validators.cjs');
      writeFileSync(file, precompiledValidatorsCode(sources));
      const loaders = createRequire(import.meta.url)(file) as Record<string, () => ValidateFunction>;
      for (const { key, schema, options } of sources) {
        const standalone = loaders[key]!();
        const compiled = new Ajv(options).compile(schema);
        for (const sample of SAMPLES)
          expect(verdict(standalone, sample), `${key} on ${JSON.stringify(sample)}`).to.deep.equal(verdict(compiled, sample));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keys a schema by its text and options, so a changed schema never meets stale code', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    const key = validatorKey(schema, { allErrors: true });
    expect(validatorKey({ ...schema }, { allErrors: true })).to.equal(key);
    expect(validatorKey({ ...schema, required: ['a'] }, { allErrors: true })).to.not.equal(key);
    expect(validatorKey(schema, { allErrors: false })).to.not.equal(key);
  });

  it('compiles none itself in a node started after `make build` (engine/scripts/precompile-validators.ts)', () => {
    // A process of its own: this one has loaded tests' schemas too.
    const probe = `import('./server/engine-server.js').then(() => import('./spi/validators.js')).then((v) => console.log(v.validatorsCompiledHere()))`;
    const compiled = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: SRC_DIST, encoding: 'utf8' });
    expect(compiled.trim(), 'validators compiled at run time: run `make build`').to.equal('0');
  });
});
