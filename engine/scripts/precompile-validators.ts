// `make build`'s step after tsc: loads the engine's modules, so that each asks validators.ts for the
// validators of its schemas, and writes them as standalone code beside validators.js — processes
// then load that code instead of compiling schemas as they start.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { precompiledValidatorsCode } from '../src/spi/validator-code.js';
import { PRECOMPILED_VALIDATORS_FILE, validatorSources } from '../src/spi/validators.js';

// The node: every connector, coordinator and worker module.
await import('../src/server/engine-server.js');

const target = fileURLToPath(new URL(`../src/spi/${PRECOMPILED_VALIDATORS_FILE}`, import.meta.url));
const sources = validatorSources();
writeFileSync(target, precompiledValidatorsCode(sources));
console.log(`${sources.length} validators precompiled into ${target}`);
