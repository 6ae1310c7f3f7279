// The JSONPath subset of json_extract, json_extract_scalar and json_size (Trino's JsonPathTokenizer):
// `$` then `.name`, `["quoted name"]` or `[name-or-index]` steps. Any other text is
// INVALID_FUNCTION_ARGUMENT "Invalid JSON path".

import { EngineError } from '../../../errors/engine-error.js';
import { JsonObject, type JsonNode } from '../../../types/json/json-node.js';

const UNQUOTED = /^[\p{L}\p{Nd}_]$/u;

function invalidPath(path: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid JSON path: '${path}'`);
}

/** The steps of a path: member names or array indexes, as text. */
export function parseLegacyJsonPath(path: string): string[] {
  if (!path.startsWith('$')) throw invalidPath(path);
  const steps: string[] = [];
  let i = 1;
  const unquoted = (extraColon: boolean): string => {
    const start = i;
    while (i < path.length && (UNQUOTED.test(path[i]) || (extraColon && path[i] === ':'))) i++;
    if (i === start) throw invalidPath(path);
    return path.slice(start, i);
  };
  while (i < path.length) {
    const c = path[i++];
    if (c === '.') {
      steps.push(unquoted(true));
    } else if (c === '[') {
      if (path[i] === '"') {
        i++;
        let token = '';
        while (i < path.length && path[i] !== '"') {
          if (path[i] === '\\') {
            if (path[i + 1] !== '"' && path[i + 1] !== '\\') throw invalidPath(path);
            i++;
          }
          token += path[i++];
        }
        if (path[i++] !== '"') throw invalidPath(path);
        steps.push(token);
      } else {
        steps.push(unquoted(false));
      }
      if (path[i++] !== ']') throw invalidPath(path);
    } else {
      throw invalidPath(path);
    }
  }
  return steps;
}

const compiled = new Map<string, string[]>();

/** The parsed steps of a path text, remembered: a path is usually one constant for every row. */
export function legacyJsonPathSteps(path: string): string[] {
  let steps = compiled.get(path);
  if (steps === undefined) {
    steps = parseLegacyJsonPath(path);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(path, steps);
  }
  return steps;
}

/** The value a path selects, or undefined where a step finds nothing. */
export function selectLegacyPath(root: JsonNode, steps: readonly string[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const step of steps) {
    if (node instanceof JsonObject) node = node.members.get(step);
    else if (Array.isArray(node)) node = /^[0-9]+$/.test(step) ? node[Number(step)] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
