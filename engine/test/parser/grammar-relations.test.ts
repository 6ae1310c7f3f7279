// The relations and query clauses of Trino's grammar added to the parser: TABLESAMPLE,
// MATCH_RECOGNIZE, UNNEST, LATERAL, table functions, JSON_TABLE, NEAREST, FOR ... AS OF,
// CORRESPONDING, GROUP BY AUTO, FETCH ... WITH TIES and `expression.*`.

import { expect } from 'chai';
import type { Query, QuerySpecification, Relation, SelectItem } from '../../src/sql/parser/ast.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { expectStatementRoundTrip, stripLocations } from './helpers.js';

const at = (line: number, column: number) => ({ line, column });
const id = (value: string, quoted = false) => ({ kind: 'Identifier', value, quoted });
const name = (...parts: string[]) => ({ kind: 'QualifiedName', parts: parts.map((p) => id(p)) });
const table = (...parts: string[]) => ({ kind: 'Table', name: name(...parts) });
const int = (n: number) => ({ kind: 'LongLiteral', value: BigInt(n), text: String(n) });

function query(sql: string): Query {
  const s = parseStatement(sql);
  if (s.kind !== 'QueryStatement') throw new Error(s.kind);
  return s.query;
}

function spec(sql: string): QuerySpecification {
  const body = query(sql).body;
  if (body.kind !== 'QuerySpecification') throw new Error(body.kind);
  return body;
}

function from(sql: string): Relation {
  const relation = spec(sql).from;
  if (!relation) throw new Error('no FROM');
  return relation;
}

describe('parser: the rest of the grammar (relations and query clauses)', () => {
  it('reads TABLESAMPLE after an aliased relation, located at TABLESAMPLE', () => {
    const sampled = from('SELECT * FROM t AS x TABLESAMPLE BERNOULLI (10.5)');
    expect(stripLocations(sampled)).to.deep.equal({
      kind: 'SampledRelation',
      relation: { kind: 'AliasedRelation', relation: table('t'), alias: id('x') },
      sampleType: 'BERNOULLI',
      percentage: { kind: 'DecimalLiteral', text: '10.5' },
    });
    expect(sampled.location).to.deep.equal(at(1, 22));
    // Non-reserved: without a sample type and `(` it is an alias.
    expect(stripLocations(from('SELECT * FROM t tablesample'))).to.deep.include({ kind: 'AliasedRelation', alias: id('tablesample') });
  });

  it('reads MATCH_RECOGNIZE with every clause, and its alias', () => {
    const relation = from(
      'SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY a ORDER BY b MEASURES last(x) AS lx ALL ROWS PER MATCH OMIT EMPTY MATCHES AFTER MATCH SKIP TO FIRST A PATTERN (A B*? | ^ (C D){2,3} $) SUBSET U = (A, B) DEFINE B AS x > 1) AS m (p)',
    );
    if (relation.kind !== 'AliasedRelation' || relation.relation.kind !== 'PatternRecognitionRelation') throw new Error(relation.kind);
    expect(relation.columnNames?.map((c) => c.value)).to.deep.equal(['p']);
    const pattern = relation.relation;
    expect(pattern.location).to.deep.equal(at(1, 17));
    expect(stripLocations(pattern)).to.deep.include({
      rowsPerMatch: 'ALL_OMIT_EMPTY',
      afterMatchSkipTo: { kind: 'SkipTo', target: 'FIRST', variable: id('a') },
    });
    expect(stripLocations(pattern.pattern)).to.deep.equal({
      kind: 'PatternAlternation',
      patterns: [
        {
          kind: 'PatternConcatenation',
          patterns: [
            { kind: 'PatternVariable', name: id('a') },
            {
              kind: 'QuantifiedPattern',
              pattern: { kind: 'PatternVariable', name: id('b') },
              quantifier: { kind: 'PatternQuantifier', type: 'ZERO_OR_MORE', greedy: false },
            },
          ],
        },
        {
          kind: 'PatternConcatenation',
          patterns: [
            { kind: 'AnchorPattern', anchor: 'PARTITION_START' },
            {
              kind: 'QuantifiedPattern',
              pattern: {
                kind: 'PatternConcatenation',
                patterns: [
                  { kind: 'PatternVariable', name: id('c') },
                  { kind: 'PatternVariable', name: id('d') },
                ],
              },
              quantifier: { kind: 'PatternQuantifier', type: 'RANGE', greedy: true, atLeast: 2, atMost: 3 },
            },
            { kind: 'AnchorPattern', anchor: 'PARTITION_END' },
          ],
        },
      ],
    });
    expect(pattern.subsets.map((s) => s.union.length)).to.deep.equal([2]);
    expect(pattern.variableDefinitions.map((d) => d.name.value)).to.deep.equal(['b']);
    expect(stripLocations(from('SELECT * FROM t match_recognize'))).to.deep.include({ alias: id('match_recognize') });
  });

  it('reads UNNEST, LATERAL, NEAREST and FOR TIMESTAMP | VERSION AS OF', () => {
    expect(stripLocations(from('SELECT * FROM UNNEST(a, b) WITH ORDINALITY AS u (x, y, n)'))).to.deep.include({
      kind: 'AliasedRelation',
      relation: { kind: 'Unnest', expressions: [id('a'), id('b')], withOrdinality: true },
      columnNames: [id('x'), id('y'), id('n')],
    });
    const lateral = from('SELECT * FROM t, LATERAL (SELECT 1) l');
    if (lateral.kind !== 'Join' || lateral.right.kind !== 'AliasedRelation') throw new Error(lateral.kind);
    expect(lateral.right.relation.kind).to.equal('Lateral');
    expect(lateral.right.relation.location).to.deep.equal(at(1, 18));
    expect(stripLocations(from('SELECT * FROM NEAREST(FROM t x WHERE x.a > 1 MATCH x.v = 2)'))).to.deep.include({
      kind: 'Nearest',
      relation: { kind: 'AliasedRelation', relation: table('t'), alias: id('x') },
    });
    expect(from('SELECT * FROM NEAREST(FROM t MATCH t.v = 2)')).to.deep.include({ kind: 'Nearest' });
    expect(stripLocations(from('SELECT * FROM t FOR VERSION AS OF 3'))).to.deep.equal({
      ...table('t'),
      queryPeriod: { kind: 'QueryPeriod', rangeType: 'VERSION', end: int(3) },
    });
    const period = from("SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2020-01-01 00:00:00' x");
    if (period.kind !== 'AliasedRelation' || period.relation.kind !== 'Table') throw new Error(period.kind);
    expect(period.relation.queryPeriod?.location).to.deep.equal(at(1, 17));
  });

  it('reads table function invocations with table, descriptor, named and COPARTITION arguments', () => {
    const relation = from(
      'SELECT * FROM TABLE(f(input => TABLE(t) AS x (a) PARTITION BY (a, b) PRUNE WHEN EMPTY ORDER BY (a DESC), TABLE(SELECT 1) KEEP WHEN EMPTY, d => DESCRIPTOR(a integer, b), CAST(NULL AS DESCRIPTOR), 5 COPARTITION (t, u)))',
    );
    if (relation.kind !== 'TableFunctionInvocation') throw new Error(relation.kind);
    expect(relation.location).to.deep.equal(at(1, 15));
    expect(stripLocations(relation.name)).to.deep.equal(name('f'));
    expect(relation.arguments.map((a) => [a.name?.value, a.value.kind])).to.deep.equal([
      ['input', 'TableArgument'],
      [undefined, 'TableArgument'],
      ['d', 'DescriptorArgument'],
      [undefined, 'DescriptorArgument'],
      [undefined, 'LongLiteral'],
    ]);
    expect(stripLocations(relation.arguments[0].value)).to.deep.include({
      relation: { kind: 'AliasedRelation', relation: table('t'), alias: id('x'), columnNames: [id('a')] },
      partitionBy: [id('a'), id('b')],
      emptyBehavior: 'PRUNE',
    });
    expect(stripLocations(relation.arguments[3].value)).to.deep.equal({ kind: 'DescriptorArgument' });
    expect(stripLocations(relation.copartitioning)).to.deep.equal([[name('t'), name('u')]]);
    // A table argument's PARTITION is not an alias.
    const bare = from('SELECT * FROM TABLE(f(TABLE(t) PARTITION BY a))');
    if (bare.kind !== 'TableFunctionInvocation') throw new Error(bare.kind);
    expect(stripLocations(bare.arguments[0].value)).to.deep.equal({ kind: 'TableArgument', relation: table('t'), partitionBy: [id('a')] });
  });

  it('reads JSON_TABLE with columns, nested paths and plans', () => {
    const relation = from(
      "SELECT * FROM JSON_TABLE(j, 'lax $' AS root COLUMNS (id FOR ORDINALITY, a bigint PATH 'lax $.a' DEFAULT 0 ON EMPTY, b varchar FORMAT JSON WITH WRAPPER, NESTED PATH 'lax $.c' AS c COLUMNS (x int)) PLAN (root OUTER c) EMPTY ON ERROR)",
    );
    if (relation.kind !== 'JsonTable') throw new Error(relation.kind);
    expect(relation.columns.map((c) => c.kind)).to.deep.equal([
      'JsonOrdinalityColumn',
      'JsonValueColumn',
      'JsonQueryColumn',
      'JsonNestedColumns',
    ]);
    expect(stripLocations(relation.plan)).to.deep.equal({
      kind: 'JsonTablePlanJoin',
      parent: id('root'),
      type: 'OUTER',
      child: { kind: 'JsonTablePlanLeaf', name: id('c') },
    });
    expect(relation.onError).to.equal('EMPTY');
    expect(stripLocations(from("SELECT * FROM JSON_TABLE(j, '$' COLUMNS (a int) PLAN DEFAULT (CROSS, INNER))"))).to.deep.include({
      plan: { kind: 'JsonTableDefaultPlan', parentChild: 'INNER', siblings: 'CROSS' },
    });
  });

  it('reads CORRESPONDING, GROUP BY AUTO, FETCH ... WITH TIES and expression.* AS (...)', () => {
    const union = query('SELECT a FROM t UNION ALL CORRESPONDING BY (a) SELECT a FROM u').body;
    expect(stripLocations(union)).to.deep.include({
      kind: 'SetOperation',
      distinct: false,
      corresponding: { kind: 'Corresponding', columns: [id('a')] },
    });
    if (union.kind !== 'SetOperation') throw new Error(union.kind);
    expect(union.corresponding?.location).to.deep.equal(at(1, 27));
    expect(stripLocations(spec('SELECT a, count(*) FROM t GROUP BY AUTO').groupBy?.elements)).to.deep.equal([{ kind: 'AutoGroupBy' }]);
    // ROLLUP and CUBE take grouping sets: (a, b) is one element, and CUBE's own parentheses are not a row.
    expect(stripLocations(spec('SELECT 1 FROM t GROUP BY ROLLUP ((a, b), c), CUBE ((a, b)), CUBE ()').groupBy?.elements)).to.deep.equal([
      { kind: 'Rollup', elements: [[id('a'), id('b')], [id('c')]] },
      { kind: 'Cube', elements: [[id('a'), id('b')]] },
      { kind: 'Cube', elements: [] },
    ]);
    expect(stripLocations(query('SELECT a FROM t ORDER BY a FETCH FIRST 2 ROWS WITH TIES'))).to.deep.include({
      limit: int(2),
      withTies: true,
    });
    const items: SelectItem[] = spec('SELECT t.* AS (x, y), f(a).* FROM t').select.items;
    expect(stripLocations(items)).to.deep.equal([
      { kind: 'AllColumns', prefix: name('t'), aliases: [id('x'), id('y')] },
      { kind: 'AllColumns', target: { kind: 'FunctionCall', name: name('f'), args: [id('a')], distinct: false, starArg: false } },
    ]);
  });

  it('round-trips every relation and clause', () => {
    const statements = [
      'SELECT * FROM t TABLESAMPLE BERNOULLI (10), u AS x TABLESAMPLE SYSTEM (50)',
      'SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY a, b ORDER BY c DESC MEASURES A.x AS ax ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW INITIAL PATTERN (A B+? C* D?? {- E -} (F | G)+ H{2} PERMUTE(L, M) ^ $ ()) SUBSET U = (A, B) DEFINE B AS B.x > PREV(B.x)) AS mr (p, q)',
      'SELECT * FROM t MATCH_RECOGNIZE (ALL ROWS PER MATCH WITH UNMATCHED ROWS AFTER MATCH SKIP TO NEXT ROW SEEK PATTERN (A | B C) DEFINE A AS true) TABLESAMPLE BERNOULLI (5)',
      'SELECT * FROM UNNEST(ARRAY[1, 2], ARRAY[3]) WITH ORDINALITY AS u (n, s, o)',
      'SELECT * FROM t CROSS JOIN LATERAL (SELECT * FROM u WHERE u.a = t.a) l',
      'SELECT * FROM TABLE(f(input => TABLE(t) AS x (a) PARTITION BY (a, b) PRUNE WHEN EMPTY ORDER BY (a DESC), TABLE(SELECT 1) KEEP WHEN EMPTY, d => DESCRIPTOR(a integer, b), e => CAST(NULL AS DESCRIPTOR), 5 COPARTITION (t, u), (v, w, x)))',
      "SELECT * FROM JSON_TABLE(j, 'lax $' AS root PASSING 1 AS x COLUMNS (id FOR ORDINALITY, a bigint PATH 'lax $.a' DEFAULT 0 ON EMPTY NULL ON ERROR, b varchar FORMAT JSON PATH '$.b' WITH ARRAY WRAPPER OMIT QUOTES ERROR ON ERROR, NESTED PATH 'lax $.c[*]' AS c COLUMNS (x integer)) PLAN (root OUTER (c UNION d)) EMPTY ON ERROR) jt",
      "SELECT * FROM JSON_TABLE(j, '$' COLUMNS (a int) PLAN (a CROSS b CROSS (c INNER d)) ERROR ON ERROR)",
      'SELECT * FROM NEAREST(FROM t WHERE t.a > 1 MATCH t.v = 1) n',
      "SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2020-01-01 00:00:00' AS x JOIN u FOR VERSION AS OF 3 ON true",
      'SELECT a FROM t EXCEPT ALL CORRESPONDING BY (a, b) SELECT a FROM u INTERSECT CORRESPONDING SELECT a FROM v',
      'SELECT a, count(*) FROM t GROUP BY AUTO',
      'SELECT a FROM t GROUP BY ROLLUP ((a, b), c, ()), CUBE ((a)), GROUPING SETS ((a, b), ())',
      'SELECT a FROM t ORDER BY a OFFSET 1 ROWS FETCH FIRST 3 ROWS WITH TIES',
      'SELECT t.* AS (x, y), f(a).*, (a).* FROM t',
    ];
    for (const sql of statements) expectStatementRoundTrip(sql);
  });
});
