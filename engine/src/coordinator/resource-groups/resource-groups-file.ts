// The resource group configuration, in the format of Trino's file-based resource group manager:
// `rootGroups` (a tree of groups with limits; names may hold ${USER} / ${SOURCE}) and `selectors`
// (the first whose user and source regexes match a query names the group it joins). Read and
// checked once at startup: any problem is a ConfigError naming the key.

import { readFileSync } from 'node:fs';
import { describeErrors } from '../../config/config-loader.js';
import { ConfigError } from '../../config/config-error.js';
import { parseDataSize } from '../../config/data-size.js';
import { validatorFor } from '../../spi/validators.js';

export interface GroupSpec {
  /** One path segment; `${USER}` and `${SOURCE}` expand per query. */
  name: string;
  /** Queries of the group and its subgroups running at once; more wait QUEUED. */
  hardConcurrencyLimit: number;
  /** Queries of the group and its subgroups waiting; more fail with QUERY_QUEUE_FULL. */
  maxQueued: number;
  /** No new query starts while the group's running queries hold more: a size ('10GB') or a share of node memory ('50%'). */
  softMemoryLimit?: string;
  /** Share of freed slots relative to sibling groups (default 1). */
  schedulingWeight?: number;
  subGroups?: GroupSpec[];
}

export interface SelectorSpec {
  /** Regular expression the whole user name must match. */
  user?: string;
  /** Regular expression the whole source (X-Engine-Source) must match; a query without a source does not match. */
  source?: string;
  /** Dotted path of a group without subgroups, e.g. `global.adhoc_${USER}`. */
  group: string;
}

export interface ResourceGroupsFile {
  rootGroups: GroupSpec[];
  selectors: SelectorSpec[];
}

const NAME_PATTERN = '^(?:[^.$]|\\$\\{(?:USER|SOURCE)\\})+$';
const PERCENT_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'urn:engine:resource-groups-schema',
  type: 'object',
  additionalProperties: false,
  required: ['rootGroups', 'selectors'],
  properties: {
    rootGroups: { type: 'array', minItems: 1, items: { $ref: '#/definitions/group' } },
    selectors: { type: 'array', minItems: 1, items: { $ref: '#/definitions/selector' } },
  },
  definitions: {
    group: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'hardConcurrencyLimit', 'maxQueued'],
      properties: {
        name: { type: 'string', pattern: NAME_PATTERN },
        hardConcurrencyLimit: { type: 'integer', minimum: 0 },
        maxQueued: { type: 'integer', minimum: 0 },
        softMemoryLimit: { type: 'string', pattern: `${PERCENT_PATTERN.source}|^\\s*\\d+(?:\\.\\d+)?\\s*[kKmMgGtTpP]?[bB]\\s*$` },
        schedulingWeight: { type: 'integer', minimum: 1 },
        subGroups: { type: 'array', items: { $ref: '#/definitions/group' } },
      },
    },
    selector: {
      type: 'object',
      additionalProperties: false,
      required: ['group'],
      properties: {
        user: { type: 'string' },
        source: { type: 'string' },
        group: { type: 'string', minLength: 1 },
      },
    },
  },
} as const;

const validate = validatorFor<ResourceGroupsFile>(SCHEMA, { allErrors: true, strict: true });

export function readResourceGroupsFile(path: string): ResourceGroupsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`Cannot read resource group file ${path}: ${(e as Error).message}`);
  }
  return checkResourceGroups(parsed, `resource group file ${path}`);
}

/** Checks the shape (JSON Schema), then what a schema cannot say: regexes, unique names, selector targets. */
export function checkResourceGroups(raw: unknown, source: string): ResourceGroupsFile {
  if (!validate(raw)) throw new ConfigError(`Invalid ${source}:\n  ${describeErrors(validate.errors ?? []).join('\n  ')}`);
  const problems = [
    ...groupProblems(raw.rootGroups, 'rootGroups'),
    ...raw.selectors.flatMap((s, i) => selectorProblems(raw, s, `selectors[${i}]`)),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid ${source}:\n  ${problems.join('\n  ')}`);
  return raw;
}

function groupProblems(groups: readonly GroupSpec[], key: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  groups.forEach((group, i) => {
    const at = `${key}[${i}]`;
    if (seen.has(group.name)) problems.push(`'${at}.name': group '${group.name}' is defined twice`);
    seen.add(group.name);
    const percent = group.softMemoryLimit === undefined ? undefined : PERCENT_PATTERN.exec(group.softMemoryLimit);
    if (percent && Number(percent[1]) > 100) problems.push(`'${at}.softMemoryLimit' must be at most 100%`);
    problems.push(...groupProblems(group.subGroups ?? [], `${at}.subGroups`));
  });
  return problems;
}

function selectorProblems(file: ResourceGroupsFile, selector: SelectorSpec, key: string): string[] {
  const problems: string[] = [];
  for (const field of ['user', 'source'] as const) {
    const pattern = selector[field];
    if (pattern === undefined) continue;
    try {
      new RegExp(pattern);
    } catch (e) {
      problems.push(`'${key}.${field}' is not a valid regular expression: ${(e as Error).message}`);
    }
  }
  try {
    resolveGroupPath(file.rootGroups, selector.group);
  } catch (e) {
    problems.push(`'${key}.group' ${(e as Error).message}`);
  }
  return problems;
}

/** The specs along a selector's dotted group path; the last one must accept queries (have no subgroups). */
export function resolveGroupPath(rootGroups: readonly GroupSpec[], path: string): GroupSpec[] {
  const specs: GroupSpec[] = [];
  let level = rootGroups;
  for (const segment of path.split('.')) {
    const spec = level.find((g) => g.name === segment);
    if (!spec)
      throw new Error(
        `names no configured group: '${path}' has no '${segment}' ${specs.length === 0 ? 'root group' : `under '${specs.map((s) => s.name).join('.')}'`}`,
      );
    specs.push(spec);
    level = spec.subGroups ?? [];
  }
  if (level.length > 0) throw new Error(`names '${path}', which has subgroups; queries join groups without subgroups`);
  return specs;
}

/** A soft memory limit in bytes: a size, or a percentage of the node's memory. */
export function softMemoryLimitBytes(limit: string | undefined, nodeMemoryBytes: number): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  const percent = PERCENT_PATTERN.exec(limit);
  return percent ? Math.floor((nodeMemoryBytes * Number(percent[1])) / 100) : parseDataSize(limit)!;
}

/** Without a file: one group 'global' with the query settings' limits, and under it a group per user. */
export function defaultResourceGroups(query: { maxRunning: number; maxQueued: number; maxRunningPerUser: number }): ResourceGroupsFile {
  return checkResourceGroups(
    {
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: query.maxRunning,
          maxQueued: query.maxQueued,
          subGroups: [{ name: '${USER}', hardConcurrencyLimit: query.maxRunningPerUser, maxQueued: query.maxQueued }],
        },
      ],
      selectors: [{ group: 'global.${USER}' }],
    },
    'default resource groups (from query.maxRunning, query.maxQueued, query.maxRunningPerUser)',
  );
}
