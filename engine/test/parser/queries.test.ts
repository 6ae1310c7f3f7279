// Queries: SELECT clauses, relations and joins, grouping, set operations, WITH, VALUES, TABLE,
// ORDER BY / OFFSET / LIMIT placement, identifiers vs keywords, and round trips of all of them.

import { expect } from 'chai';
import type { Query, QuerySpecification, Relation, Statement } from '../../src/sql/parser/ast.js';
import { formatRelation } from '../../src/sql/parser/formatter.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { expectStatementRoundTrip, stripLocations, syntaxError } from './helpers.js';

function query(sql: string): Query {
  const s: Statement = parseStatement(sql);
  if (s.kind !== 'QueryStatement') throw new Error(`not a query: ${s.kind}`);
  return s.query;
}

function spec(sql: string): QuerySpecification {
  const body = query(sql).body;
  if (body.kind !== 'QuerySpecification') throw new Error(`not a SELECT block: ${body.kind}`);
  return body;
}

function from(sql: string): Relation {
  const relation = spec(sql).from;
  if (!relation) throw new Error('no FROM');
  return relation;
}

/** A compact picture of a relation tree: joins as [type left right]. */
function shape(r: Relation): string {
  switch (r.kind) {
    case 'Join':
      return `[${r.type}${r.criteria ? ` ${r.criteria.kind}` : ''} ${shape(r.left)} ${shape(r.right)}]`;
    case 'AliasedRelation':
      return `${shape(r.relation)} AS ${r.alias.value}${r.columnNames ? `(${r.columnNames.map((c) => c.value).join(',')})` : ''}`;
    default:
      return formatRelation(r);
  }
}

/** A compact picture of set operations. */
function setShape(sql: string): string {
  const walk = (b: Query['body']): string =>
    b.kind === 'SetOperation'
      ? `(${b.inputs.map(walk).join(` ${b.operator}${b.distinct ? '' : ' ALL'} `)})`
      : b.kind === 'QuerySpecification'
        ? String((b.select.items[0] as { expression: { text: string } }).expression.text)
        : b.kind;
  return walk(query(sql).body);
}

describe('parser: SELECT clauses', () => {
  it('reads DISTINCT / ALL, aliases with and without AS, * and t.*', () => {
    const s = spec('SELECT DISTINCT a, b AS x, c y, *, t.*, s.t.* FROM t');
    expect(s.select.distinct).to.equal(true);
    expect(
      stripLocations(
        s.select.items.map((i) =>
          i.kind === 'SelectExpression' ? (i.alias?.value ?? '-') : `*${i.prefix?.parts.map((p) => p.value).join('.') ?? ''}`,
        ),
      ),
    ).to.deep.equal(['-', 'x', 'y', '*', '*t', '*s.t']);
    expect(spec('SELECT ALL a FROM t').select.distinct).to.equal(false);
  });

  it('puts ORDER BY / OFFSET / LIMIT on the Query node, also for a plain SELECT', () => {
    const q = query('SELECT a FROM t ORDER BY a DESC NULLS LAST, 2 OFFSET 5 ROWS LIMIT 10');
    expect(q.orderBy.map((s) => [s.ordering, s.nullOrdering])).to.deep.equal([
      ['DESC', 'LAST'],
      ['ASC', undefined],
    ]);
    expect(stripLocations(q.offset)).to.deep.equal({ kind: 'LongLiteral', value: 5n, text: '5' });
    expect(stripLocations(q.limit)).to.deep.equal({ kind: 'LongLiteral', value: 10n, text: '10' });
    const body = q.body as QuerySpecification;
    expect(body.orderBy).to.deep.equal([]);
    expect(body.limit).to.equal(undefined);
    expect(query('SELECT 1 LIMIT ALL').limit).to.equal('ALL');
    expect(stripLocations(query('SELECT 1 FETCH FIRST 3 ROWS ONLY').limit)).to.deep.equal({ kind: 'LongLiteral', value: 3n, text: '3' });
    expect(stripLocations(query('SELECT 1 OFFSET 1 ROW FETCH NEXT ROW ONLY').limit)).to.deep.include({ value: 1n });
    expect(stripLocations(query('SELECT 1 LIMIT ?').limit)).to.deep.equal({ kind: 'Parameter', index: 0 });
  });

  it('reads WHERE, GROUP BY with every grouping element, HAVING and WINDOW', () => {
    const s = spec(
      'SELECT a FROM t WHERE a > 1 GROUP BY DISTINCT a, 2, (b, c), (), ROLLUP (a, b), CUBE (c), GROUPING SETS ((a, b), c, ()) HAVING count(*) > 1 WINDOW w AS (PARTITION BY a), v AS (w ORDER BY b)',
    );
    expect(s.where?.kind).to.equal('Comparison');
    expect(s.having?.kind).to.equal('Comparison');
    expect(s.groupBy?.distinct).to.equal(true);
    expect(
      s.groupBy?.elements.map((e) =>
        e.kind === 'GroupingSets'
          ? `${e.kind}:${e.sets.map((x) => x.length).join('/')}`
          : e.kind === 'SimpleGroupBy'
            ? `${e.kind}:${e.expressions.length}`
            : e.kind === 'AutoGroupBy'
              ? e.kind
              : `${e.kind}:${e.elements.map((x) => x.length).join('/')}`,
      ),
    ).to.deep.equal([
      'SimpleGroupBy:1',
      'SimpleGroupBy:1',
      'SimpleGroupBy:2',
      'SimpleGroupBy:0',
      'Rollup:1/1',
      'Cube:1',
      'GroupingSets:2/1/0',
    ]);
    expect(s.windows.map((w) => w.name.value)).to.deep.equal(['w', 'v']);
    expect(spec('SELECT a FROM t GROUP BY ROW(a, b)').groupBy!.elements[0]).to.deep.include({ kind: 'SimpleGroupBy' });
    expect((spec('SELECT a FROM t GROUP BY ROW(a, b)').groupBy!.elements[0] as { expressions: unknown[] }).expressions).to.have.length(1);
  });

  it('reads non-reserved keywords as names and never a clause word as a bare alias', () => {
    const s = spec(
      'SELECT date, year, tables, schema, name, comment, type, value, data, first, last, position, row, limit, a, b, c, d, e, x, y FROM t',
    );
    expect(s.select.items).to.have.length(21);
    expect(query('SELECT a FROM t limit 5').limit).to.not.equal(undefined);
    expect(spec('SELECT a AS limit FROM t').select.items[0]).to.deep.include({ kind: 'SelectExpression' });
    expect(shape(from('SELECT * FROM t offset 2'))).to.equal('t');
    expect(syntaxError('SELECT select FROM t').message).to.match(/^line 1:8: mismatched input 'select'/);
    expect(spec('SELECT "select" FROM t').select.items).to.have.length(1);
  });
});

describe('parser: relations and joins', () => {
  it('reads every join type with ON / USING / NATURAL criteria', () => {
    expect(
      shape(
        from(
          'SELECT * FROM a JOIN b ON x INNER JOIN c USING (k) LEFT JOIN d ON y LEFT OUTER JOIN e ON z RIGHT OUTER JOIN f ON w FULL JOIN g ON v',
        ),
      ),
    ).to.equal('[FULL JoinOn [RIGHT JoinOn [LEFT JoinOn [LEFT JoinOn [INNER JoinUsing [INNER JoinOn a b] c] d] e] f] g]');
    expect(shape(from('SELECT * FROM a CROSS JOIN b NATURAL JOIN c NATURAL FULL OUTER JOIN d'))).to.equal(
      '[FULL NaturalJoin [INNER NaturalJoin [CROSS a b] c] d]',
    );
  });

  it('reads comma joins as IMPLICIT, each side with its own joins', () => {
    expect(shape(from('SELECT * FROM a, b x JOIN c ON p, d'))).to.equal('[IMPLICIT [IMPLICIT a [INNER JoinOn b AS x c]] d]');
  });

  it('reads aliases, subqueries, VALUES and parenthesised joins in FROM', () => {
    expect(shape(from('SELECT * FROM cat.sch.t AS x (a, b)'))).to.equal('cat.sch.t AS x(a,b)');
    expect(shape(from('SELECT * FROM (SELECT 1) AS t (a)'))).to.equal('(SELECT 1) AS t(a)');
    expect(from('SELECT * FROM (VALUES (1, 2), (3, 4)) AS t(a, b)')).to.deep.include({ kind: 'AliasedRelation' });
    expect((from('SELECT * FROM (VALUES 1) v') as { relation: Relation }).relation.kind).to.equal('ValuesRelation');
    expect((from('SELECT * FROM (VALUES 1 LIMIT 1) v') as { relation: Relation }).relation.kind).to.equal('SubqueryRelation');
    expect(shape(from('SELECT * FROM (a JOIN b ON x) LEFT JOIN c ON y'))).to.equal('[LEFT JoinOn [INNER JoinOn a b] c]');
    expect(shape(from('SELECT * FROM a JOIN (b JOIN c ON y) ON x'))).to.equal('[INNER JoinOn a [INNER JoinOn b c]]');
    expect(shape(from('SELECT * FROM a JOIN b JOIN c ON y ON x'))).to.equal('[INNER JoinOn a [INNER JoinOn b c]]');
    expect(shape(from('SELECT * FROM ((SELECT 1) x JOIN y ON true)'))).to.equal('[INNER JoinOn (SELECT 1) AS x y]');
    expect(shape(from('SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u'))).to.equal('((SELECT 1) UNION (SELECT 2)) AS u');
    expect(shape(from('SELECT * FROM ((t))'))).to.equal('t');
  });
});

describe('parser: set operations, WITH, VALUES, TABLE', () => {
  it('binds INTERSECT tighter than UNION / EXCEPT, all left-associative', () => {
    expect(setShape('SELECT 1 UNION SELECT 2 INTERSECT SELECT 3')).to.equal('(1 UNION (2 INTERSECT 3))');
    expect(setShape('SELECT 1 INTERSECT SELECT 2 UNION ALL SELECT 3')).to.equal('((1 INTERSECT 2) UNION ALL 3)');
    expect(setShape('SELECT 1 EXCEPT SELECT 2 UNION DISTINCT SELECT 3')).to.equal('((1 EXCEPT 2) UNION 3)');
    expect(setShape('SELECT 1 UNION SELECT 2 INTERSECT ALL SELECT 3 INTERSECT SELECT 4 EXCEPT SELECT 5')).to.equal(
      '((1 UNION ((2 INTERSECT ALL 3) INTERSECT 4)) EXCEPT 5)',
    );
    expect(setShape('SELECT 1 UNION (SELECT 2 UNION SELECT 3)')).to.equal('(1 UNION SubqueryBody)');
  });

  it('makes one set operation of a chain of the same operator, quantifier and CORRESPONDING', () => {
    expect(setShape('SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4')).to.equal(
      '(1 UNION ALL 2 UNION ALL 3 UNION ALL 4)',
    );
    expect(setShape('SELECT 1 EXCEPT SELECT 2 EXCEPT SELECT 3 INTERSECT SELECT 4 INTERSECT SELECT 5')).to.equal(
      '(1 EXCEPT 2 EXCEPT (3 INTERSECT 4 INTERSECT 5))',
    );
    // A change of quantifier or operator nests: ((1 UNION ALL 2) UNION 3) UNION ALL 4.
    expect(setShape('SELECT 1 UNION ALL SELECT 2 UNION SELECT 3 UNION ALL SELECT 4')).to.equal('(((1 UNION ALL 2) UNION 3) UNION ALL 4)');
    expect(setShape('SELECT 1 UNION SELECT 2 EXCEPT SELECT 3 UNION SELECT 4')).to.equal('(((1 UNION 2) EXCEPT 3) UNION 4)');
    expect(setShape('SELECT 1 UNION CORRESPONDING SELECT 2 UNION CORRESPONDING SELECT 3')).to.equal('((1 UNION 2) UNION 3)');
    const chain = query(`SELECT 1${' UNION ALL SELECT 1'.repeat(9_999)}`).body;
    expect(chain.kind === 'SetOperation' && chain.inputs.length).to.equal(10_000);
  });

  it('refuses a chain of more than 10,000 inputs at the operator adding the 10,001st', () => {
    const sql = `SELECT 1${' UNION ALL SELECT 1'.repeat(10_000)}`;
    expect(() => query(sql)).to.throw(
      `line 1:${10 + 19 * 9_999}: UNION ALL has more than 10000 inputs; at most 10000 are supported in one chain of the same set operator`,
    );
  });

  it('gives ORDER BY / LIMIT after a set operation to the whole query', () => {
    const q = query('SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 3');
    expect(q.body.kind).to.equal('SetOperation');
    expect(q.orderBy).to.have.length(1);
    expect(q.limit).to.not.equal(undefined);
  });

  it('reads WITH [RECURSIVE] with column aliases and several CTEs', () => {
    const q = query('WITH RECURSIVE a (x, y) AS (SELECT 1, 2), b AS (SELECT * FROM a) SELECT * FROM b');
    expect(q.with?.recursive).to.equal(true);
    expect(q.with?.queries.map((w) => [w.name.value, w.columnAliases?.map((c) => c.value)])).to.deep.equal([
      ['a', ['x', 'y']],
      ['b', undefined],
    ]);
  });

  it('reads VALUES and TABLE as query bodies and parenthesised bodies', () => {
    expect(query('VALUES (1, 2), (3, 4)').body).to.deep.include({ kind: 'Values' });
    expect(stripLocations(query('TABLE cat.s.t').body)).to.deep.equal({
      kind: 'Table',
      name: { kind: 'QualifiedName', parts: ['cat', 's', 't'].map((value) => ({ kind: 'Identifier', value, quoted: false })) },
    });
    expect(query('(SELECT 1) ORDER BY 1').body.kind).to.equal('SubqueryBody');
  });

  it('round-trips a broad set of queries', () => {
    const queries = [
      'SELECT DISTINCT a, b AS "B", c d, *, t.* FROM t',
      'SELECT a FROM t WHERE a IN (1, 2, 3) AND b NOT BETWEEN 1 AND 2 OR c IS NULL',
      'SELECT * FROM a NATURAL LEFT JOIN b, c CROSS JOIN d',
      'SELECT * FROM (a JOIN b ON a.x = b.x) LEFT OUTER JOIN c USING (x, y)',
      'SELECT * FROM a JOIN b JOIN c ON y ON x',
      'SELECT * FROM (SELECT 1) AS t (a), (VALUES (1, 2)) v (x, y)',
      'SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u',
      'SELECT * FROM (a CROSS JOIN b) AS j',
      'SELECT a, count(*) FROM t GROUP BY ALL a, (), (a, b), ROLLUP (a, b), CUBE (a), GROUPING SETS ((a), (a, b), ()) HAVING sum(b) > 1',
      'SELECT a FROM t GROUP BY ROW(a, b)',
      'SELECT rank() OVER w FROM t WINDOW w AS (PARTITION BY a ORDER BY b)',
      '(SELECT 1) UNION ALL SELECT 2 INTERSECT SELECT 3 EXCEPT DISTINCT SELECT 4 ORDER BY 1 LIMIT ALL',
      'SELECT 1 UNION (SELECT 2 UNION SELECT 3)',
      'WITH RECURSIVE a (x) AS (SELECT 1), b AS (VALUES 1) TABLE a',
      'VALUES 1, 2, 3',
      "VALUES (1, 'a'), (2, 'b')",
      'SELECT 1 OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY',
      'SELECT a FROM t ORDER BY a DESC NULLS FIRST, b NULLS LAST LIMIT ?',
      'SELECT ((SELECT 1) UNION (SELECT 2) ORDER BY 1 LIMIT 1)',
      'SELECT x FROM t WHERE x = (SELECT max(y) FROM u WHERE u.k = t.k)',
      'SELECT "Mixed Case"."Col", "a""b" FROM "Mixed Case"',
      'SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u) AND NOT EXISTS (SELECT 2)',
      'SELECT ? + ?, f(?) FROM t WHERE a = ?',
    ];
    for (const sql of queries) expectStatementRoundTrip(sql);
  });
});
