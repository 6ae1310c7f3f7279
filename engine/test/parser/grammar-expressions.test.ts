// The expression forms, types and literals of Trino's grammar added to the parser: their AST,
// locations and round trip, including those the engine does not run.

import { expect } from 'chai';
import type { Expression } from '../../src/sql/parser/ast.js';
import { parseExpression } from '../../src/sql/parser/parser.js';
import { expectExpressionRoundTrip, expr, syntaxError } from './helpers.js';

const at = (line: number, column: number) => ({ line, column });
const id = (value: string, quoted = false) => ({ kind: 'Identifier', value, quoted });
const int = (n: number) => ({ kind: 'LongLiteral', value: BigInt(n), text: String(n) });
const str = (value: string) => ({ kind: 'StringLiteral', value });
const type = (name: string, parameters: number[] = []) => ({ kind: 'TypeSpec', name, parameters });

function parsed<K extends Expression['kind']>(sql: string, kind: K): Extract<Expression, { kind: K }> {
  const e = parseExpression(sql);
  expect(e.kind, sql).to.equal(kind);
  return e as Extract<Expression, { kind: K }>;
}

describe('parser: the rest of the grammar (expressions)', () => {
  it('reads IS [NOT] TRUE | FALSE | UNKNOWN', () => {
    expect(expr('a IS TRUE')).to.deep.equal({ kind: 'BooleanTest', value: id('a'), truthValue: 'TRUE', negated: false });
    expect(expr('a IS NOT FALSE')).to.deep.equal({ kind: 'BooleanTest', value: id('a'), truthValue: 'FALSE', negated: true });
    expect(syntaxError('SELECT a = 1 IS UNKNOWN').message).to.match(/^line 1:14: mismatched input 'IS'/);
    expect(expr('(a = 1) IS NOT UNKNOWN')).to.deep.include({ kind: 'BooleanTest', truthValue: 'UNKNOWN', negated: true });
    expect(parsed('x\n  IS TRUE', 'BooleanTest').location).to.deep.equal(at(1, 1));
    expect(syntaxError('SELECT a IS MAYBE').message).to.equal(
      "line 1:13: mismatched input 'MAYBE'. Expecting: 'DISTINCT', 'FALSE', 'NOT', 'NULL', 'TRUE', 'UNKNOWN'",
    );
  });

  it('reads BETWEEN SYMMETRIC and ASYMMETRIC, keeping plain BETWEEN as it was', () => {
    expect(expr('a BETWEEN SYMMETRIC 3 AND 1')).to.deep.equal({
      kind: 'Between',
      value: id('a'),
      min: int(3),
      max: int(1),
      negated: false,
      symmetry: 'SYMMETRIC',
    });
    expect(expr('a NOT BETWEEN ASYMMETRIC 1 AND 3')).to.deep.include({ negated: true, symmetry: 'ASYMMETRIC' });
    expect(expr('a BETWEEN 1 AND 3')).to.not.have.property('symmetry');
  });

  it('reads the MATCH and UNIQUE predicates', () => {
    const match = parsed('a MATCH UNIQUE PARTIAL (SELECT 1)', 'MatchPredicate');
    expect(match).to.deep.include({ unique: true, matchType: 'PARTIAL' });
    expect(match.location).to.deep.equal(at(1, 3));
    expect(expr('a MATCH (SELECT 1)')).to.deep.include({ kind: 'MatchPredicate', unique: false });
    expect(parsed('UNIQUE (SELECT 1)', 'Unique').query.kind).to.equal('Query');
    expect(expr('unique(a)')).to.deep.include({ kind: 'FunctionCall' });
  });

  it('reads AT TIME ZONE and AT LOCAL, binding tighter than the operators', () => {
    expect(expr("ts AT TIME ZONE 'UTC'")).to.deep.equal({ kind: 'AtTimeZone', value: id('ts'), zone: str('UTC') });
    expect(expr('ts AT LOCAL')).to.deep.equal({ kind: 'AtTimeZone', value: id('ts') });
    expect(expr("ts AT TIME ZONE INTERVAL '1' HOUR")).to.deep.include({
      zone: { kind: 'IntervalLiteral', value: '1', sign: 1, startField: 'HOUR' },
    });
    const sum = expr("a + b AT TIME ZONE 'x'") as { right: { kind: string } };
    expect(sum.right.kind).to.equal('AtTimeZone');
    expect(parsed("ts AT TIME ZONE 'UTC'", 'AtTimeZone').location).to.deep.equal(at(1, 4));
  });

  it('reads lambdas, ARRAY constructors, subscripts, ROW with field names, method calls and named arguments', () => {
    expect(expr('x -> x + 1')).to.deep.equal({
      kind: 'Lambda',
      parameters: [id('x')],
      body: { kind: 'ArithmeticBinary', operator: '+', left: id('x'), right: int(1) },
    });
    expect(expr('(a, b) -> a')).to.deep.equal({ kind: 'Lambda', parameters: [id('a'), id('b')], body: id('a') });
    expect(expr('() -> 1')).to.deep.equal({ kind: 'Lambda', parameters: [], body: int(1) });
    expect(expr('transform(v, e -> e * 2)')).to.deep.include({ kind: 'FunctionCall' });
    expect(expr('ARRAY[1, 2]')).to.deep.equal({ kind: 'Array', items: [int(1), int(2)] });
    expect(expr('[]')).to.deep.equal({ kind: 'Array', items: [] });
    expect(expr('a[1][2]')).to.deep.equal({ kind: 'Subscript', base: { kind: 'Subscript', base: id('a'), index: int(1) }, index: int(2) });
    expect(parsed('a[1]', 'Subscript').location).to.deep.equal(at(1, 2));
    expect(expr('ROW(1 AS a, 2)')).to.deep.equal({ kind: 'Row', items: [int(1), int(2)], fieldNames: [id('a'), null] });
    expect(expr('f(r).m(1)')).to.deep.include({ kind: 'MethodCall', method: id('m'), args: [int(1)] });
    expect(expr('a.b(1)')).to.deep.include({ kind: 'FunctionCall' });
    expect(expr('t::m()')).to.deep.equal({
      kind: 'StaticMethodCall',
      target: { kind: 'QualifiedName', parts: [id('t')] },
      method: id('m'),
      args: [],
    });
    expect(expr('f(a => 1, 2)')).to.deep.include({ args: [{ kind: 'NamedArgument', name: id('a'), value: int(1) }, int(2)] });
  });

  it('reads OVERLAY, NORMALIZE with a normal form, and a measure over a window', () => {
    expect(expr("OVERLAY(s PLACING 'x' FROM 2 FOR 3)")).to.deep.equal({
      kind: 'Overlay',
      value: id('s'),
      replacement: str('x'),
      start: int(2),
      length: int(3),
    });
    expect(expr('overlay(a, b)')).to.deep.include({ kind: 'FunctionCall', args: [id('a'), id('b')] });
    expect(expr('normalize(s, NFKD)')).to.deep.include({ kind: 'FunctionCall', args: [id('s'), str('NFKD')] });
    expect(expr('m OVER w')).to.deep.equal({ kind: 'Measure', name: id('m'), window: id('w') });
  });

  it('reads the SQL/JSON functions with paths, PASSING, RETURNING, wrappers, quotes and behaviours', () => {
    const exists = parsed("JSON_EXISTS(j, 'lax $.a' PASSING 1 AS x TRUE ON ERROR)", 'JsonExists');
    expect(exists.onError).to.equal('TRUE');
    expect(exists.invocation.path).to.equal('lax $.a');
    expect(exists.invocation.passing.map((p) => p.name.value)).to.deep.equal(['x']);
    const value = expr("JSON_VALUE(j FORMAT JSON, '$' RETURNING bigint DEFAULT 1 ON EMPTY ERROR ON ERROR)") as Record<string, unknown>;
    expect(value).to.deep.include({
      kind: 'JsonValue',
      returning: type('bigint'),
      onEmpty: { type: 'DEFAULT', value: int(1) },
      onError: { type: 'ERROR' },
    });
    const query = expr("JSON_QUERY(j, '$' WITH CONDITIONAL ARRAY WRAPPER OMIT QUOTES ON SCALAR STRING EMPTY OBJECT ON ERROR)");
    expect(query).to.deep.include({
      kind: 'JsonQuery',
      wrapper: 'CONDITIONAL',
      quotes: { keep: false, onScalarString: true },
      onError: 'EMPTY OBJECT',
    });
    const object = expr("JSON_OBJECT(KEY 'a' VALUE 1, 'b' : 2 ABSENT ON NULL WITH UNIQUE KEYS)") as { members: unknown[] };
    expect(object).to.deep.include({ kind: 'JsonObject', nullOnNull: false, uniqueKeys: true });
    expect(object.members).to.have.length(2);
    expect(expr('JSON_ARRAY(1, 2 NULL ON NULL RETURNING varchar)')).to.deep.include({
      kind: 'JsonArray',
      nullOnNull: true,
      returning: type('varchar'),
    });
    expect(parsed("x + JSON_VALUE(j, '$')", 'ArithmeticBinary').right.location).to.deep.equal(at(1, 5));
  });

  it('reads listagg (WITHIN GROUP required), ordered-set aggregates, RUNNING / FINAL and label.*', () => {
    const listagg = parsed(
      "listagg(DISTINCT v, ',' ON OVERFLOW TRUNCATE '..' WITHOUT COUNT) WITHIN GROUP (ORDER BY v DESC) FILTER (WHERE v > 0)",
      'FunctionCall',
    );
    expect(listagg).to.deep.include({ distinct: true, listaggOverflow: { behavior: 'TRUNCATE', filler: '..', withCount: false } });
    expect(listagg.withinGroup?.map((s) => s.ordering)).to.deep.equal(['DESC']);
    expect(listagg.filter?.kind).to.equal('Comparison');
    expect(syntaxError("SELECT listagg(v, ',') FROM t").message).to.match(/^line 1:24: mismatched input 'FROM'\. Expecting: 'WITHIN'$/);
    expect(parsed('percentile_cont(0.5) WITHIN GROUP (ORDER BY x)', 'FunctionCall').withinGroup).to.have.length(1);
    expect(expr('RUNNING avg(x)')).to.deep.include({ kind: 'FunctionCall', processingMode: 'RUNNING' });
    expect(expr('running')).to.deep.equal(id('running'));
    expect(expr('count(A.*)')).to.deep.include({ args: [{ kind: 'AllColumns', prefix: { kind: 'QualifiedName', parts: [id('a')] } }] });
  });

  it('reads a simple CASE whose WHEN clauses are predicates on the operand', () => {
    const c = parsed('CASE x WHEN > 5 THEN 1 WHEN IS NULL THEN 2 WHEN 3 THEN 3 END', 'SimpleCase');
    expect(c.whenClauses.map((w) => w.operand.kind)).to.deep.equal(['Comparison', 'IsNull', 'LongLiteral']);
    const first = c.whenClauses[0].operand;
    if (first.kind !== 'Comparison') throw new Error(first.kind);
    expect(first.left).to.deep.equal({ kind: 'CaseOperand', location: at(1, 13) });
  });

  it('reads a window frame with MEASURES, AFTER MATCH, PATTERN, SUBSET and DEFINE', () => {
    const call = parsed(
      'f(x) OVER (ORDER BY a MEASURES last(b) AS lb ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING AFTER MATCH SKIP TO NEXT ROW SEEK PATTERN (A B+) SUBSET U = (A) DEFINE B AS b > 0)',
      'FunctionCall',
    );
    if (call.window?.kind !== 'WindowSpecification') throw new Error('no window');
    const recognition = call.window.frame?.patternRecognition;
    expect(recognition?.measures.map((m) => m.name.value)).to.deep.equal(['lb']);
    expect(recognition).to.deep.include({ searchMode: 'SEEK' });
    expect(recognition?.afterMatchSkipTo?.target).to.equal('NEXT_ROW');
    expect(recognition?.pattern?.kind).to.equal('PatternConcatenation');
    expect(recognition?.location).to.deep.equal(at(1, 23));
    expect(call.window.frame?.unit).to.equal('ROWS');
  });

  it('reads the types Trino has: ROW, ARRAY<t>, t ARRAY, MAP<k, v>, map(k, v), interval precisions', () => {
    const castType = (t: string) => (expr(`CAST(x AS ${t})`) as { type: unknown }).type;
    expect(castType('row(a integer, double precision)')).to.deep.equal({
      kind: 'TypeSpec',
      name: 'row',
      parameters: [],
      fields: [
        { kind: 'RowFieldSpec', name: id('a'), type: type('integer') },
        { kind: 'RowFieldSpec', type: type('double') },
      ],
    });
    const arrayOfBigint = { kind: 'TypeSpec', name: 'array', parameters: [], typeParameters: [type('bigint')] };
    for (const t of ['array(bigint)', 'ARRAY<bigint>', 'bigint ARRAY', 'bigint ARRAY[3]'])
      expect(castType(t), t).to.deep.equal(arrayOfBigint);
    expect(castType('MAP<varchar, int>')).to.deep.equal({
      kind: 'TypeSpec',
      name: 'map',
      parameters: [],
      typeParameters: [type('varchar'), type('integer')],
    });
    expect(castType('interval day(3) to second(6)')).to.deep.equal({
      kind: 'TypeSpec',
      name: 'interval day to second',
      parameters: [],
      intervalPrecision: { leading: 3, fractional: 6 },
    });
    expect(expr("INTERVAL '1' SECOND(2, 3)")).to.deep.include({ startField: 'SECOND', precision: { leading: 2, fractional: 3 } });
    expect(syntaxError("SELECT INTERVAL '1' HOUR TO YEAR").message).to.match(/Invalid interval qualifier: HOUR TO YEAR/);
  });

  it('reads hexadecimal, octal and binary integers and digits separated by _', () => {
    expect(expr('0x1F')).to.deep.equal({ kind: 'LongLiteral', value: 31n, text: '0x1F' });
    expect(expr('0O17')).to.deep.include({ value: 15n });
    expect(expr('0b1010')).to.deep.include({ value: 10n });
    expect(expr('0x_FF')).to.deep.include({ value: 255n });
    expect(expr('1_000_000')).to.deep.equal({ kind: 'LongLiteral', value: 1000000n, text: '1000000' });
    expect(expr('1_000.5')).to.deep.equal({ kind: 'DecimalLiteral', text: '1000.5' });
    expect(syntaxError('SELECT 0x1G').message).to.equal(
      'line 1:8: identifiers must not start with a digit; surround the identifier with double quotes',
    );
  });

  it('round-trips every expression form', () => {
    const expressions = [
      'a IS NOT TRUE OR b IS UNKNOWN',
      'a NOT BETWEEN SYMMETRIC 1 AND 2',
      'a MATCH UNIQUE FULL (SELECT 1)',
      'UNIQUE (SELECT 1)',
      "-a AT TIME ZONE 'x' AT TIME ZONE 'y'",
      'f(x -> x + 1, (a, b) -> a * b, () -> 1)',
      'ARRAY[1, 2][1] + [3][1]',
      'ROW(1 AS a, \'b\' AS "B", 3)',
      'f(x).m(1, 2) + t::m()',
      'm OVER (PARTITION BY a)',
      'f(a => 1, b => 2)',
      "OVERLAY(a PLACING 'x' FROM 2 FOR 3)",
      'normalize(a, NFKD)',
      "CASE x WHEN > 5 THEN 'big' WHEN IS NULL THEN 'null' WHEN BETWEEN 1 AND 2 THEN 's' WHEN NOT IN (3, 4) THEN 'm' WHEN = ANY (SELECT 1) THEN 'q' WHEN 9 THEN 'n' END",
      "JSON_EXISTS(j FORMAT JSON ENCODING UTF16, 'lax $.a' AS p PASSING 1 AS x, y FORMAT JSON AS z UNKNOWN ON ERROR)",
      "JSON_VALUE(j, 'lax $.a' RETURNING bigint NULL ON EMPTY DEFAULT -1 ON ERROR)",
      "JSON_QUERY(j, '$' RETURNING varchar FORMAT JSON WITH UNCONDITIONAL ARRAY WRAPPER KEEP QUOTES EMPTY ARRAY ON EMPTY NULL ON ERROR)",
      "JSON_OBJECT('a' VALUE 1, key VALUE 2 NULL ON NULL WITHOUT UNIQUE KEYS RETURNING json)",
      "JSON_ARRAY(1, 'a' FORMAT JSON ABSENT ON NULL)",
      'JSON_ARRAY()',
      "listagg(a, ',' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY a) OVER (PARTITION BY b)",
      'percentile_disc(0.9) WITHIN GROUP (ORDER BY a DESC NULLS FIRST)',
      'FINAL count(A.*)',
      'f(x) OVER (w MEASURES last(x) AS l ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING AFTER MATCH SKIP TO LAST a INITIAL PATTERN (a+? (b | c)* {- d -} PERMUTE(e, f) ^ $ () g{2,} h{,3} i{1,4}?) SUBSET u = (a, b) DEFINE a AS true)',
      'CAST(x AS row(a integer, b array(map(varchar, double))))',
      'TRY_CAST(x AS interval day(3) to second(6))',
      "INTERVAL -'1' DAY(2) TO SECOND(3) + INTERVAL '2' SECOND(1, 2)",
      '0x1F + 0o17 + 0b1 + 1_000',
    ];
    for (const sql of expressions) expectExpressionRoundTrip(sql);
  });
});
