// Validators for JSON Schemas (ajv). Compiling a schema is slow — the task request's takes 0.45 s of
// a quiet core and over 1 s on a loaded one, in every process and thread that loads its module — so
// the build compiles every schema the engine uses into standalone code (scripts/precompile-validators.ts,
// run by `make build`) and a process loads that code instead. A schema the build did not see (a
// build that skipped the step, or a schema added since) is compiled here, as ajv always did.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import AjvModule, { type Options, type ValidateFunction } from 'ajv';

const Ajv = AjvModule.default;

/** The build's standalone validators, beside this module in dist: a loader for each schema's key. */
export const PRECOMPILED_VALIDATORS_FILE = 'precompiled-validators.cjs';

/** A schema and the ajv options it is compiled with, as the build needs them to compile it again. */
export interface ValidatorSource {
  key: string;
  schema: object;
  options: Options;
}

type PrecompiledValidators = Readonly<Record<string, () => ValidateFunction>>;

const precompiled: PrecompiledValidators = loadPrecompiled();
const sources = new Map<string, ValidatorSource>();
let compiledHere = 0;

/** The validator of `schema` under ajv `options`: the build's standalone code when it has it. */
export function validatorFor<T = unknown>(schema: object, options: Options): ValidateFunction<T> {
  const key = validatorKey(schema, options);
  sources.set(key, { key, schema, options });
  const load = precompiled[key];
  if (load) return load() as ValidateFunction<T>;
  compiledHere++;
  return new Ajv(options).compile<T>(schema);
}

/** Every schema this process asked for a validator of (what the build compiles). */
export function validatorSources(): readonly ValidatorSource[] {
  return [...sources.values()];
}

/** How many validators this process compiled itself because the build's code lacked them. */
export function validatorsCompiledHere(): number {
  return compiledHere;
}

/** A schema's key: its options and text, hashed (a changed schema never meets stale code). */
export function validatorKey(schema: object, options: Options): string {
  return createHash('sha256')
    .update(JSON.stringify([options, schema]))
    .digest('base64url');
}

function loadPrecompiled(): PrecompiledValidators {
  const require = createRequire(import.meta.url);
  const path = `./${PRECOMPILED_VALIDATORS_FILE}`;
  try {
    require.resolve(path);
  } catch {
    return {};
  }
  return require(path) as PrecompiledValidators;
}
