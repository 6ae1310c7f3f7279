// Checks of values that came over the network against a JSON Schema (ajv, as the configuration
// is checked), with messages that name the path of what is wrong: the task request, and the split
// infos connectors make (Connector.checkSplit).

import type { ErrorObject, ValidateFunction } from 'ajv';
import { validatorFor } from './validators.js';

/**
 * A compiled schema: `check(value, path)` is undefined when the value fits, else what is wrong,
 * named by its JSON pointer (`path`: the value's own, when it sits inside a larger document).
 */
export function shapeCheck(schema: object): (value: unknown, path?: string) => string | undefined {
  const validate = validatorFor(schema, { allErrors: false, strict: true, discriminator: true, verbose: true });
  return (value, path = '') => firstProblem(validate, value, path);
}

function firstProblem(validate: ValidateFunction, value: unknown, path: string): string | undefined {
  try {
    if (validate(value)) return undefined;
  } catch (e) {
    // The compiled code recurses with the data: a plan nested deeper than the stack is refused, not a crash.
    if (e instanceof RangeError) return `${path || '(root)'} is nested too deeply`;
    throw e;
  }
  return describeError(validate.errors![0], path);
}

function describeError(error: ErrorObject, path: string): string {
  const at = `${path}${error.instancePath}` || '(root)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'discriminator': {
      // The union's title says what it is (a plan node, an expression, a type).
      const union = (error.parentSchema as { title?: string } | undefined)?.title ?? 'value';
      return typeof params.tagValue === 'string'
        ? `${at}: unknown ${union} ${String(params.tag)} '${params.tagValue}'`
        : `${at}/${String(params.tag)} must be a string`;
    }
    case 'additionalProperties':
      return `${at}: unknown field '${String(params.additionalProperty)}'`;
    case 'maxItems':
      return `${at} must not have more than ${String(params.limit)} items`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}
