// The JSON Schema of a task request (POST /v1/task/{taskId}) after its tags are decoded
// (plan-json.ts): the session, the output buffer layout, the splits and locations, and the plan
// fragment node by node — every node kind with its fields, the expressions, symbols and types in
// them — so that a malformed request is refused with the path of what is wrong before any task
// exists. Plan node, expression and type kinds are discriminated by `kind`: an unknown kind is
// named as such. What a schema cannot say (a channel in range, a catalog that exists, a split of a
// scan of the fragment) is checked by task-update-check.ts.

import { DYNAMIC_FILTER_DOMAINS_SCHEMA } from './dynamic-filter-domains.js';
import { SPECIAL_FORMS } from '../sql/planner/row-expression.js';
import type { PlanNode } from '../sql/planner/plan.js';
import { QDIGEST_NAMES } from '../types/sketch/qdigest-type.js';

/** Splits one update may carry (all its scans together); the coordinator sends far fewer at a time. */
export const MAX_SPLITS_PER_TASK_UPDATE = 10_000;
/** Remote source locations one update may carry: one per producing task. */
const MAX_LOCATIONS = 10_000;

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const arrayOf = (items: object, maxItems?: number) => ({ type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }) });
const integer = (minimum = 0) => ({ type: 'integer', minimum });
const STRING = { type: 'string' } as const;
const BOOLEAN = { type: 'boolean' } as const;
/** A value of any SQL type: a number, bigint, string, boolean, byte array or null (as decoded). */
const SCALAR = {} as const;

/** An object with these fields required (others optional); fields it does not know are ignored. */
function object(required: Record<string, object>, optional: Record<string, object> = {}) {
  return { type: 'object', required: Object.keys(required), properties: { ...required, ...optional } };
}

/** A union discriminated by `tag` (`kind` unless named); `title` names it in the message for an unknown one. */
function kinds(title: string, branches: Record<string, object>, tag = 'kind') {
  return {
    title,
    type: 'object',
    discriminator: { propertyName: tag },
    required: [tag],
    properties: { [tag]: STRING },
    oneOf: Object.values(branches),
  };
}

/** One branch of a `kinds` union: `kind` is one of `names`. */
function kind(names: string | string[], required: Record<string, object> = {}, optional: Record<string, object> = {}) {
  return object({ kind: Array.isArray(names) ? { enum: names } : { const: names }, ...required }, optional);
}

const SQL_TYPE = kinds('type', {
  plain: kind([
    'boolean',
    'tinyint',
    'smallint',
    'integer',
    'bigint',
    'real',
    'double',
    'varbinary',
    'json',
    'uuid',
    'ipaddress',
    'color',
    'variant',
    'number',
    'date',
    'interval year to month',
    'interval day to second',
    'unknown',
  ]),
  decimal: kind('decimal', {
    precision: { type: 'integer', minimum: 1, maximum: 38 },
    scale: { type: 'integer', minimum: 0, maximum: 38 },
  }),
  varchar: kind('varchar', {}, { length: integer() }),
  char: kind('char', { length: integer() }),
  time: kind('time', { precision: { type: 'integer', minimum: 0, maximum: 12 } }),
  timestamp: kind('timestamp', { precision: { type: 'integer', minimum: 0, maximum: 12 } }),
  zonedTimestamp: kind('timestamp with time zone', { precision: { type: 'integer', minimum: 0, maximum: 12 } }),
  zonedTime: kind('time with time zone', { precision: { type: 'integer', minimum: 0, maximum: 12 } }),
  array: kind('array', { element: ref('type') }),
  // A lambda argument's type.
  function: kind('function', { arguments: arrayOf(ref('type')), returnType: ref('type') }),
  sketch: kind('sketch', { sketch: { enum: ['HyperLogLog', 'P4HyperLogLog', 'SetDigest', 'tdigest', ...QDIGEST_NAMES] } }),
  map: kind('map', { key: ref('type'), value: ref('type') }),
  row: kind('row', { fields: arrayOf(object({ type: ref('type') }, { name: STRING })) }),
  // A table column of a type the engine cannot process: it travels in table handles, never as values.
  unsupported: kind('unsupported', { name: STRING }),
});

const SYMBOL = object({ id: integer(), name: STRING, type: ref('type') });
const SYMBOLS = arrayOf(ref('symbol'));

/** A SQL routine travelling with its call (sql/routines/routine.ts). */
const ROUTINE_VARIABLE = object({ id: STRING, type: ref('type') });
const ROUTINE_STATEMENTS = arrayOf(ref('routineStatement'));
const ROUTINE_STATEMENT = kinds('routine statement', {
  declare: kind('declare', { variable: ROUTINE_VARIABLE }, { value: ref('expression') }),
  block: kind('block', { statements: ROUTINE_STATEMENTS }),
  return: kind('return', { value: ref('expression') }),
  set: kind('set', { variable: STRING, value: ref('expression') }),
  if: kind('if', { condition: ref('expression'), then: ROUTINE_STATEMENTS, otherwise: ROUTINE_STATEMENTS }),
  loop: kind('loop', { label: STRING, body: ROUTINE_STATEMENTS }, { while: ref('expression'), until: ref('expression') }),
  jump: kind(['leave', 'iterate'], { label: STRING }),
});
const ROUTINE = object({
  name: STRING,
  parameters: arrayOf(ROUTINE_VARIABLE),
  returnType: ref('type'),
  calledOnNullInput: BOOLEAN,
  deterministic: BOOLEAN,
  body: ROUTINE_STATEMENTS,
  timeLimitMillis: { type: 'number', minimum: 0 },
});

const ROW_EXPRESSION = kinds('expression', {
  symbol: kind('symbol', { symbol: ref('symbol'), type: ref('type') }),
  input: kind('input', { channel: integer(), type: ref('type') }),
  constant: kind('constant', { value: SCALAR, type: ref('type') }, { parameter: object({ index: integer() }, { inferred: ref('type') }) }),
  call: kind('call', { name: STRING, args: arrayOf(ref('expression')), type: ref('type') }),
  cast: kind('cast', { arg: ref('expression'), type: ref('type'), safe: BOOLEAN }, { assignment: BOOLEAN, sessionZone: STRING }),
  special: kind('special', {
    form: { enum: [...SPECIAL_FORMS] },
    args: arrayOf(ref('expression')),
    type: ref('type'),
  }),
  lambda: kind('lambda', { parameters: arrayOf(object({ name: STRING, type: ref('type') })), body: ref('expression'), type: ref('type') }),
  variable: kind('variable', { name: STRING, type: ref('type') }),
  routine: kind('routine', { routine: ROUTINE, args: arrayOf(ref('expression')), type: ref('type') }),
});

const COLUMN = object({ name: STRING, type: ref('type') });
const DOMAIN_BOUND = object({ value: SCALAR, inclusive: BOOLEAN });
const ORDERING = arrayOf(object({ symbol: ref('symbol'), ascending: BOOLEAN, nullsFirst: BOOLEAN }));
const TYPES = arrayOf(ref('type'));
const FRAME_BOUND = object(
  { type: { enum: ['UNBOUNDED_PRECEDING', 'PRECEDING', 'CURRENT_ROW', 'FOLLOWING', 'UNBOUNDED_FOLLOWING'] } },
  { offset: ref('symbol'), value: ref('symbol'), sortKey: ref('symbol') },
);
const EXCHANGE_TYPE = { enum: ['GATHER', 'REPARTITION', 'REPLICATE'] };
/** A row count: LIMIT's may be infinite (OFFSET without LIMIT). */
const COUNT = { anyOf: [integer(), { const: Number.POSITIVE_INFINITY }] };

/** Where a write's rows go; its connector checks the handle (task-update-check.ts). */
const WRITE_TARGET = object({ catalog: STRING, schema: STRING, table: STRING, kind: { enum: ['create', 'insert'] }, handle: SCALAR });

/** A plan node of kind `name`: an id and output symbols, and its own fields. */
const node = (name: string, required: Record<string, object>, optional: Record<string, object> = {}) =>
  kind(name, { id: integer(), outputs: SYMBOLS, ...required }, optional);
const SOURCE = ref('node');

// Typed by the plan's kinds, so that a new kind of node is a compile error here until workers accept it.
// A RecursiveUnion runs on the coordinator only (its fragment is COORDINATOR_ONLY): no task receives one.
const PLAN_NODE_SCHEMAS: Record<Exclude<PlanNode['kind'], 'RecursiveUnion'>, object> = {
  TableScan: node(
    'TableScan',
    { table: object({ catalog: STRING, schema: STRING, name: STRING, columns: arrayOf(COLUMN) }), columns: arrayOf(COLUMN) },
    {
      constraint: arrayOf(object({ column: STRING }, { low: DOMAIN_BOUND, high: DOMAIN_BOUND, values: arrayOf(SCALAR) })),
      pushed: object({ handle: SCALAR, explain: arrayOf(STRING) }),
      splitSampleRatio: { type: 'number' },
      dynamicFilters: arrayOf(object({ id: STRING, column: STRING }, { remote: BOOLEAN })),
    },
  ),
  Values: node('Values', { rows: arrayOf(arrayOf(SCALAR)) }),
  Filter: node('Filter', { source: SOURCE, predicate: ref('expression') }),
  Project: node('Project', { source: SOURCE, assignments: arrayOf(object({ symbol: ref('symbol'), expression: ref('expression') })) }),
  Aggregate: node('Aggregate', {
    source: SOURCE,
    groupingKeys: SYMBOLS,
    aggregations: arrayOf(
      object(
        {
          symbol: ref('symbol'),
          function: object(
            { name: STRING, resolvedWith: TYPES, argumentTypes: TYPES, returnType: ref('type'), intermediateTypes: TYPES },
            { ordering: arrayOf(object({ ascending: BOOLEAN, nullsFirst: BOOLEAN })) },
          ),
          arguments: SYMBOLS,
          distinct: BOOLEAN,
        },
        { mask: ref('symbol') },
      ),
    ),
    step: { enum: ['single', 'partial', 'final'] },
  }),
  Join: node(
    'Join',
    {
      type: { enum: ['inner', 'left', 'right', 'full', 'mark'] },
      left: SOURCE,
      right: SOURCE,
      criteria: arrayOf(object({ left: ref('symbol'), right: ref('symbol') })),
    },
    {
      filter: ref('expression'),
      mark: object({ symbol: ref('symbol'), nullAware: BOOLEAN }),
      nearest: object({ key: ref('symbol'), operator: { enum: ['<', '<=', '>', '>='] }, value: ref('symbol') }),
      dynamicFilters: arrayOf(object({ id: STRING, build: ref('symbol') }, { remote: BOOLEAN })),
      probeKeyFilters: arrayOf(object({ id: STRING, probe: ref('symbol') })),
    },
  ),
  Sort: node('Sort', { source: SOURCE, orderBy: ORDERING }),
  TopN: node('TopN', { source: SOURCE, orderBy: ORDERING, count: integer() }),
  Limit: node('Limit', { source: SOURCE, count: COUNT, offset: integer() }),
  Window: node('Window', {
    source: SOURCE,
    partitionBy: SYMBOLS,
    orderBy: ORDERING,
    functions: arrayOf(
      object({
        symbol: ref('symbol'),
        function: object({ name: STRING, resolvedWith: TYPES, argumentTypes: TYPES, returnType: ref('type') }),
        arguments: SYMBOLS,
        frame: object({ unit: { enum: ['ROWS', 'RANGE', 'GROUPS'] }, start: FRAME_BOUND, end: FRAME_BOUND }),
        ignoreNulls: BOOLEAN,
      }),
    ),
  }),
  SetOperation: node('SetOperation', {
    operation: { enum: ['union', 'intersect', 'except'] },
    distinct: BOOLEAN,
    sources: arrayOf(SOURCE),
    sourceSymbols: arrayOf(SYMBOLS),
  }),
  EnforceSingleRow: node('EnforceSingleRow', { source: SOURCE }),
  GroupId: node('GroupId', { source: SOURCE, groupingSets: arrayOf(SYMBOLS), groupIdSymbol: ref('symbol') }),
  AssignUniqueId: node('AssignUniqueId', { source: SOURCE, idSymbol: ref('symbol') }),
  MarkDistinct: node('MarkDistinct', { source: SOURCE, marker: ref('symbol'), distinctSymbols: SYMBOLS }),
  Unnest: node(
    'Unnest',
    {
      source: SOURCE,
      replicate: SYMBOLS,
      mappings: arrayOf(object({ input: ref('symbol'), output: ref('symbol') }, { entry: { enum: ['key', 'value'] } })),
      outer: BOOLEAN,
    },
    { ordinality: ref('symbol') },
  ),
  Apply: node(
    'Apply',
    { input: SOURCE, subquery: SOURCE, correlation: SYMBOLS, applyType: { enum: ['scalar', 'exists', 'in', 'lateral'] } },
    { value: ref('symbol'), result: ref('symbol'), outer: BOOLEAN },
  ),
  Exchange: node('Exchange', { type: EXCHANGE_TYPE, source: SOURCE, partitionKeys: SYMBOLS }, { orderBy: ORDERING }),
  RemoteSource: node('RemoteSource', { sourceFragmentIds: arrayOf(integer()), exchangeType: EXCHANGE_TYPE }, { orderBy: ORDERING }),
  TableWriter: node('TableWriter', {
    source: SOURCE,
    target: WRITE_TARGET,
    columnNames: arrayOf(STRING),
    columns: SYMBOLS,
    notNull: arrayOf(STRING),
  }),
  TableFinish: node('TableFinish', { source: SOURCE, target: WRITE_TARGET }),
};
const PLAN_NODE = kinds('plan node', PLAN_NODE_SCHEMAS);

const SESSION = object(
  {
    queryId: STRING,
    user: STRING,
    timeZone: STRING,
    properties: { type: 'object', additionalProperties: STRING },
    preparedStatements: { type: 'object', additionalProperties: STRING },
    clientTags: arrayOf(STRING),
    startTime: { type: 'number' },
  },
  { source: STRING, catalog: STRING, schema: STRING, clientInfo: STRING },
);

const closed = (required: Record<string, object>, optional: Record<string, object> = {}) => ({
  ...object(required, optional),
  additionalProperties: false,
});

/** Consumers of a task's output: at most one per task of the stage above. */
const PARTITIONS = { type: 'integer', minimum: 1, maximum: MAX_LOCATIONS };
/** The RemoteSource nodes reading a shared stage's output (shared-stages.ts). */
const READERS = { type: 'integer', minimum: 2, maximum: MAX_LOCATIONS };
const OUTPUT_BUFFERS = kinds(
  'output buffers',
  {
    PARTITIONED: closed(
      { type: { const: 'PARTITIONED' }, partitions: PARTITIONS, partitionChannels: arrayOf(integer()) },
      { readers: READERS },
    ),
    BROADCAST: closed({ type: { const: 'BROADCAST' }, partitions: PARTITIONS }),
    GATHER: closed({ type: { const: 'GATHER' } }),
  },
  'type',
);

const DECISIONS = arrayOf(
  object({ name: { enum: ['threads', 'partial aggregation', 'final step', 'probe first', 'parallel build'] }, rule: STRING }),
);

/** A fragment's physical plan (sql/planner/physical/physical-plan-json.ts): its logical nodes by id. */
/** A physical node's branch: `shared` when a Ref elsewhere in the plan names it (written once, a DAG). */
function physicalKind(name: string, required: Record<string, object>, optional: Record<string, object> = {}) {
  return kind(name, required, { shared: integer(), ...optional });
}

const PHYSICAL_NODE = kinds('physical node', {
  Ref: kind('Ref', { shared: integer() }),
  ParallelMarkJoin: physicalKind('ParallelMarkJoin', {
    node: integer(),
    probe: ref('physical'),
    build: ref('physical'),
    decisions: DECISIONS,
    inMainThread: ref('physical'),
  }),
  ParallelSort: physicalKind('ParallelSort', {
    node: integer(),
    pipeline: ref('physical'),
    decisions: DECISIONS,
    inMainThread: ref('physical'),
  }),
  ParallelWindow: physicalKind('ParallelWindow', {
    node: integer(),
    pipeline: ref('physical'),
    decisions: DECISIONS,
    inMainThread: ref('physical'),
  }),
  ParallelHashBuild: physicalKind('ParallelHashBuild', {
    node: integer(),
    join: integer(),
    source: ref('physical'),
    threads: integer(1),
    minRows: integer(),
    decisions: DECISIONS,
  }),
  Spool: physicalKind(
    'Spool',
    { node: integer(), commonSubplan: integer(), consumers: integer(1) },
    { source: ref('physical'), acrossTasks: BOOLEAN },
  ),
  Operator: physicalKind('Operator', { node: integer(), sources: arrayOf(ref('physical')) }),
  SingleStepAggregation: physicalKind('SingleStepAggregation', { final: integer(), partial: integer(), source: ref('physical') }),
  ParallelScan: physicalKind(
    'ParallelScan',
    {
      node: integer(),
      scan: integer(),
      threadTop: integer(),
      threads: integer(1),
      minSplits: integer(),
      splits: { enum: ['listed', 'assigned'] },
      stages: arrayOf(
        kinds('thread stage', {
          filterProject: kind('filterProject', { node: integer() }),
          probe: kind('probe', { join: integer(), build: ref('physical') }),
        }),
      ),
      exchanges: arrayOf(object({ type: { enum: ['ROUND_ROBIN', 'HASH', 'GATHER'] }, keys: arrayOf(ref('symbol')), below: integer() })),
      decisions: DECISIONS,
      inMainThread: ref('physical'),
    },
    {
      aggregation: object(
        { partial: integer() },
        {
          final: integer(),
          finalStep: { enum: ['main thread', 'partitioned across threads'] },
          having: integer(),
        },
      ),
    },
  ),
});

export const TASK_REQUEST_SCHEMA = {
  $id: 'urn:engine:task-request',
  ...closed(
    {
      session: SESSION,
      sources: arrayOf(
        closed({
          planNodeId: integer(),
          splits: arrayOf(
            closed({ sequenceId: integer(), split: object({ catalog: STRING, schema: STRING, table: STRING, info: SCALAR }) }),
            MAX_SPLITS_PER_TASK_UPDATE,
          ),
          noMoreSplits: BOOLEAN,
        }),
      ),
      remoteSources: arrayOf(
        closed({
          planNodeId: integer(),
          locations: arrayOf(closed({ uri: STRING, nodeId: STRING }), MAX_LOCATIONS),
          noMoreLocations: BOOLEAN,
        }),
      ),
    },
    {
      fragment: ref('node'),
      physicalPlan: ref('physical'),
      outputBuffers: OUTPUT_BUFFERS,
      dynamicFilterDomains: DYNAMIC_FILTER_DOMAINS_SCHEMA,
    },
  ),
  $defs: {
    node: PLAN_NODE,
    physical: PHYSICAL_NODE,
    expression: ROW_EXPRESSION,
    symbol: SYMBOL,
    type: SQL_TYPE,
    routineStatement: ROUTINE_STATEMENT,
  },
};
