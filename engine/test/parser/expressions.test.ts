// Expressions: precedence, literals, special forms, function calls and window specifications.

import { expect } from 'chai';
import type { Expression } from '../../src/sql/parser/ast.js';
import { formatExpression } from '../../src/sql/parser/formatter.js';
import { parseExpression } from '../../src/sql/parser/parser.js';
import { expectExpressionRoundTrip, expr, stripLocations } from './helpers.js';

/** The expression with explicit parentheses around every operation, to read precedence at a glance. */
function grouped(e: Expression): string {
  switch (e.kind) {
    case 'LogicalBinary':
    case 'ArithmeticBinary':
    case 'Comparison':
      return `(${grouped(e.left)} ${e.operator} ${grouped(e.right)})`;
    case 'Concat':
      return `(${grouped(e.left)} || ${grouped(e.right)})`;
    case 'Not':
      return `(NOT ${grouped(e.value)})`;
    case 'ArithmeticUnary':
      return `(${e.operator}${grouped(e.value)})`;
    case 'Between':
      return `(${grouped(e.value)} BETWEEN ${grouped(e.min)} AND ${grouped(e.max)})`;
    case 'IsNull':
      return `(${grouped(e.value)} IS NULL)`;
    case 'Like':
      return `(${grouped(e.value)} LIKE ${grouped(e.pattern)})`;
    case 'InList':
      return `(${grouped(e.value)} IN ${e.list.map(grouped).join(',')})`;
    default:
      return formatExpression(e);
  }
}

function precedence(sql: string): string {
  return grouped(parseExpression(sql));
}

describe('parser: expression precedence (Trino SqlBase.g4)', () => {
  it('OR < AND < NOT < predicates', () => {
    expect(precedence('a OR b AND c')).to.equal('(a OR (b AND c))');
    expect(precedence('a AND b OR c AND d')).to.equal('((a AND b) OR (c AND d))');
    expect(precedence('NOT a AND b')).to.equal('((NOT a) AND b)');
    expect(precedence('NOT a = b')).to.equal('(NOT (a = b))');
    expect(precedence('NOT NOT a')).to.equal('(NOT (NOT a))');
  });

  it('predicates take value expressions: arithmetic and || bind tighter', () => {
    expect(precedence('a + 1 = b * 2')).to.equal('((a + 1) = (b * 2))');
    expect(precedence('a || b = c')).to.equal('((a || b) = c)');
    expect(precedence('x BETWEEN a + 1 AND b AND c')).to.equal('((x BETWEEN (a + 1) AND b) AND c)');
    expect(precedence('a + b IS NULL')).to.equal('((a + b) IS NULL)');
    expect(precedence("a || 'x' LIKE b")).to.equal("((a || 'x') LIKE b)");
    expect(precedence('a - 1 IN (1, 2 + 3)')).to.equal('((a - 1) IN 1,(2 + 3))');
  });

  it('unary minus > * / % > + - > ||, all left-associative', () => {
    expect(precedence('a || b + c * d')).to.equal('(a || (b + (c * d)))');
    expect(precedence('a - b - c')).to.equal('((a - b) - c)');
    expect(precedence('a / b * c % d')).to.equal('(((a / b) * c) % d)');
    expect(precedence('-a * b')).to.equal('((-a) * b)');
    expect(precedence('- -a')).to.equal('(-(-a))');
    expect(precedence('a || b || c')).to.equal('((a || b) || c)');
    expect(precedence('(a + b) * c')).to.equal('((a + b) * c)');
  });

  it('allows one predicate per value expression, as Trino does', () => {
    expect(() => parseExpression('a = b = c')).to.throw("line 1:7: mismatched input '='");
  });

  it('round-trips expressions whose parentheses matter', () => {
    for (const sql of [
      '(a OR b) AND c',
      'NOT (a OR b)',
      '(a = b) = c',
      'a - (b - c)',
      '-(a + b)',
      'a * (b / c)',
      '(a || b) + 1 = 2',
      '(a IS NULL) IS NULL',
      '- (-1)',
      '(NOT a) = b',
    ]) {
      expectExpressionRoundTrip(sql);
    }
  });
});

describe('parser: literals', () => {
  it('keeps integers exact as bigint, also beyond the bigint range', () => {
    expect(expr('12345678901234567890')).to.deep.equal({ kind: 'LongLiteral', value: 12345678901234567890n, text: '12345678901234567890' });
    expect(expr('9223372036854775807')).to.deep.include({ value: 9223372036854775807n });
  });

  // Trino's TestSqlParser.testNumbers: a minus right before an integer belongs to the literal.
  it('reads a minus before an integer as part of the literal, as Trino does', () => {
    expect(expr('-9223372036854775808')).to.deep.equal({ kind: 'LongLiteral', value: -9223372036854775808n, text: '-9223372036854775808' });
    expect(expr('-5')).to.deep.equal({ kind: 'LongLiteral', value: -5n, text: '-5' });
    expect(expr('- -5')).to.deep.equal({ kind: 'ArithmeticUnary', operator: '-', value: { kind: 'LongLiteral', value: -5n, text: '-5' } });
    expect(expr('-(5)')).to.deep.equal({ kind: 'ArithmeticUnary', operator: '-', value: { kind: 'LongLiteral', value: 5n, text: '5' } });
    expect(expr('3 - -2')).to.deep.equal({
      kind: 'ArithmeticBinary',
      operator: '-',
      left: { kind: 'LongLiteral', value: 3n, text: '3' },
      right: { kind: 'LongLiteral', value: -2n, text: '-2' },
    });
    expect(expr('-1.5')).to.deep.equal({ kind: 'ArithmeticUnary', operator: '-', value: { kind: 'DecimalLiteral', text: '1.5' } });
  });

  it('keeps decimal literal text and reads doubles', () => {
    expect(expr('12345678901234567890.123')).to.deep.equal({ kind: 'DecimalLiteral', text: '12345678901234567890.123' });
    expect(expr('.5')).to.deep.equal({ kind: 'DecimalLiteral', text: '.5' });
    expect(expr('1.5E-2')).to.deep.equal({ kind: 'DoubleLiteral', value: 0.015, text: '1.5E-2' });
    expect(expr('1e3')).to.deep.equal({ kind: 'DoubleLiteral', value: 1000, text: '1e3' });
  });

  it('reads strings, binary literals, NULL and booleans', () => {
    expect(expr("'it''s'")).to.deep.equal({ kind: 'StringLiteral', value: "it's" });
    expect(expr("X'0a ff'")).to.deep.equal({ kind: 'BinaryLiteral', hex: '0AFF' });
    expect(expr('NULL')).to.deep.equal({ kind: 'NullLiteral' });
    expect(expr('true')).to.deep.equal({ kind: 'BooleanLiteral', value: true });
    expect(() => parseExpression("X'0g'")).to.throw('line 1:1: Binary literal can only contain hexadecimal digits');
    expect(() => parseExpression("X'abc'")).to.throw('line 1:1: Binary literal must contain an even number of digits');
  });

  it('reads typed literals as GenericLiteral with a normalised type', () => {
    const literal = (sql: string) => {
      const e = parseExpression(sql);
      if (e.kind !== 'GenericLiteral') throw new Error(`not a typed literal: ${e.kind}`);
      return `${e.type.name}|${e.value}`;
    };
    expect(literal("DATE '2020-01-02'")).to.equal('date|2020-01-02');
    expect(literal("TIME '01:02:03'")).to.equal('time|01:02:03');
    expect(literal("TIMESTAMP '2020-01-02 03:04:05.678'")).to.equal('timestamp|2020-01-02 03:04:05.678');
    expect(literal("DECIMAL '1.50'")).to.equal('decimal|1.50');
    expect(literal("REAL '1.5'")).to.equal('real|1.5');
    expect(literal("DOUBLE '1e3'")).to.equal('double|1e3');
    expect(literal("double precision '2'")).to.equal('double|2');
    expect(literal("CHAR 'x'")).to.equal('char|x');
    expect(literal("VARCHAR 'y'")).to.equal('varchar|y');
  });

  it('reads interval literals with sign and field range', () => {
    expect(expr("INTERVAL '3' MONTH")).to.deep.equal({ kind: 'IntervalLiteral', value: '3', sign: 1, startField: 'MONTH' });
    expect(expr("INTERVAL -'2' DAY")).to.deep.equal({ kind: 'IntervalLiteral', value: '2', sign: -1, startField: 'DAY' });
    expect(expr("INTERVAL + '1-2' YEAR TO MONTH")).to.deep.equal({
      kind: 'IntervalLiteral',
      value: '1-2',
      sign: 1,
      startField: 'YEAR',
      endField: 'MONTH',
    });
    expect(expr("INTERVAL '1 02:03:04' DAY TO SECOND")).to.deep.include({ startField: 'DAY', endField: 'SECOND' });
    for (const field of ['YEAR', 'HOUR', 'MINUTE', 'SECOND']) expect(expr(`INTERVAL '1' ${field}`)).to.deep.include({ startField: field });
  });

  it('numbers ? parameters in textual order', () => {
    const e = parseExpression('? + f(?, ?) * ?');
    const text = JSON.stringify(stripLocations(e), (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    expect([...text.matchAll(/"index":(\d+)/g)].map((m) => Number(m[1]))).to.deep.equal([0, 1, 2, 3]);
  });

  it('round-trips every literal form', () => {
    for (const sql of [
      "'a''b'",
      "X'00FF'",
      "DATE '2020-01-01'",
      "TIMESTAMP '2020-01-01 00:00:00'",
      "INTERVAL -'3' MONTH",
      "INTERVAL '1-2' YEAR TO MONTH",
      '1.5E-2',
      '12345678901234567890',
      '0.50',
      'NULL',
      'FALSE',
      "U&'\\00e9'",
    ]) {
      expectExpressionRoundTrip(sql);
    }
  });
});

describe('parser: special forms', () => {
  it('substring(x FROM a [FOR b]) becomes substring(x, a[, b])', () => {
    expect(expr('substring(x FROM 2 FOR 3)')).to.deep.equal(expr('substring(x, 2, 3)'));
    expect(expr('substring(x FROM 2)')).to.deep.equal(expr('substring(x, 2)'));
  });

  it('position(a IN b) becomes strpos(b, a)', () => {
    expect(expr("position('a' IN x || y)")).to.deep.equal(expr("strpos(x || y, 'a')"));
  });

  it('trim with BOTH / LEADING / TRAILING becomes trim / ltrim / rtrim', () => {
    const call = (name: string, ...args: string[]) => ({
      kind: 'FunctionCall',
      name: { kind: 'QualifiedName', parts: [{ kind: 'Identifier', value: name, quoted: false }] },
      args: args.map((a) => expr(a)),
      distinct: false,
      starArg: false,
    });
    expect(expr('trim(x)')).to.deep.equal(call('trim', 'x'));
    expect(expr("trim(BOTH 'a' FROM x)")).to.deep.equal(call('trim', 'x', "'a'"));
    expect(expr("trim(LEADING 'a' FROM x)")).to.deep.equal(call('ltrim', 'x', "'a'"));
    expect(expr('trim(TRAILING FROM x)')).to.deep.equal(call('rtrim', 'x'));
    expect(expr("trim('a' FROM x)")).to.deep.equal(call('trim', 'x', "'a'"));
    expect(expr("trim(x, 'a')")).to.deep.equal(call('trim', 'x', "'a'"));
  });

  it('reads EXTRACT, CAST and TRY_CAST', () => {
    expect(expr('EXTRACT(year FROM d)')).to.deep.equal({
      kind: 'Extract',
      field: 'YEAR',
      value: { kind: 'Identifier', value: 'd', quoted: false },
    });
    expect(expr('extract(day_of_week FROM d)')).to.deep.include({ field: 'DAY_OF_WEEK' });
    expect(() => parseExpression('EXTRACT(foo FROM d)')).to.throw('line 1:9: Invalid EXTRACT field: FOO');
    expect(expr('CAST(x AS decimal(10, 2))')).to.deep.equal({
      kind: 'Cast',
      value: { kind: 'Identifier', value: 'x', quoted: false },
      type: { kind: 'TypeSpec', name: 'decimal', parameters: [10, 2] },
      safe: false,
    });
    expect(expr('TRY_CAST(x AS varchar)')).to.deep.include({ safe: true });
  });

  it('normalises type names', () => {
    const type = (t: string) => {
      const e = parseExpression(`CAST(x AS ${t})`);
      if (e.kind !== 'Cast') throw new Error('not a cast');
      return [e.type.name, ...e.type.parameters].join(' ');
    };
    expect(type('int')).to.equal('integer');
    expect(type('INTEGER')).to.equal('integer');
    expect(type('numeric(5,1)')).to.equal('decimal 5 1');
    expect(type('character(3)')).to.equal('char 3');
    expect(type('double precision')).to.equal('double');
    expect(type('varchar(25)')).to.equal('varchar 25');
    expect(type('time(3) with time zone')).to.equal('time with time zone 3');
    expect(type('timestamp without time zone')).to.equal('timestamp');
    expect(type('timestamp(6)')).to.equal('timestamp 6');
    expect(type('interval year to month')).to.equal('interval year to month');
    expect(type('interval day to second')).to.equal('interval day to second');
    for (const t of ['boolean', 'tinyint', 'smallint', 'bigint', 'real', 'varbinary', 'date']) expect(type(t)).to.equal(t);
    expect(type('array(bigint)')).to.equal('array');
  });

  it('reads CASE in both forms', () => {
    expect(expr('CASE WHEN a THEN 1 ELSE 2 END')).to.deep.include({ kind: 'SearchedCase' });
    const simple = expr("CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' END") as { kind: string; whenClauses: unknown[] };
    expect(simple.kind).to.equal('SimpleCase');
    expect(simple.whenClauses).to.have.length(2);
  });

  it('reads current_date & co as CurrentTime', () => {
    expect(expr('current_date')).to.deep.equal({ kind: 'CurrentTime', function: 'current_date' });
    expect(expr('current_timestamp(3)')).to.deep.equal({ kind: 'CurrentTime', function: 'current_timestamp', precision: 3 });
    expect(expr('LOCALTIME')).to.deep.equal({ kind: 'CurrentTime', function: 'localtime' });
    expect(expr('localtimestamp')).to.deep.equal({ kind: 'CurrentTime', function: 'localtimestamp' });
    expect(expr('current_time')).to.deep.equal({ kind: 'CurrentTime', function: 'current_time' });
  });

  it('reads rows, subqueries, EXISTS, IN and quantified comparisons', () => {
    expect(expr('(1, 2)')).to.deep.equal(expr('ROW(1, 2)'));
    expect(expr('(SELECT 1)')).to.deep.include({ kind: 'Subquery' });
    expect(expr('EXISTS (SELECT 1)')).to.deep.include({ kind: 'Exists' });
    expect(expr('x NOT IN (SELECT 1)')).to.deep.include({ kind: 'InSubquery', negated: true });
    expect(expr('x IN ((SELECT 1))')).to.deep.include({ kind: 'InSubquery' });
    expect(expr('x IN (1, (SELECT 1))')).to.deep.include({ kind: 'InList' });
    expect(expr('x = ANY (SELECT 1)')).to.deep.include({ kind: 'QuantifiedComparison', quantifier: 'ANY', operator: '=' });
    expect(expr('x <> SOME (SELECT 1)')).to.deep.include({ quantifier: 'ANY', operator: '<>' });
    expect(expr('x >= ALL (SELECT 1)')).to.deep.include({ quantifier: 'ALL', operator: '>=' });
    expect(expr('x != y')).to.deep.include({ kind: 'Comparison', operator: '<>' });
    expect(expr("x NOT LIKE 'a%' ESCAPE '#'")).to.deep.include({ kind: 'Like', negated: true });
    expect(expr('a IS NOT DISTINCT FROM b')).to.deep.include({ kind: 'IsDistinctFrom', negated: true });
    expect(expr('((SELECT 1) UNION (SELECT 2))')).to.deep.include({ kind: 'Subquery' });
  });

  it('reads dereferences and qualified function names', () => {
    expect(expr('a.b.c')).to.deep.equal({
      kind: 'Dereference',
      base: {
        kind: 'Dereference',
        base: { kind: 'Identifier', value: 'a', quoted: false },
        field: { kind: 'Identifier', value: 'b', quoted: false },
      },
      field: { kind: 'Identifier', value: 'c', quoted: false },
    });
    expect(expr('system.builtin.abs(x)')).to.deep.include({ kind: 'FunctionCall' });
  });

  it('round-trips the special forms', () => {
    for (const sql of [
      'substring(x FROM 1 FOR 2)',
      "position('a' IN b)",
      "trim(LEADING 'x' FROM y)",
      "trim(BOTH FROM ' a ')",
      "EXTRACT(DOW FROM d + INTERVAL '1' DAY)",
      'CAST(a + 1 AS decimal(10,2))',
      'TRY_CAST(x AS timestamp(3) with time zone)',
      'CASE WHEN a > 1 THEN b ELSE c END',
      'CASE a WHEN 1 THEN 2 END',
      'current_timestamp(6)',
      'ROW(1, 2)',
      'x IN (SELECT a FROM t)',
      'x > ALL (SELECT a FROM t)',
      'NOT EXISTS (SELECT 1)',
      'coalesce(a, nullif(b, c), if(d, e), try(f))',
      'grouping(a, b)',
    ]) {
      expectExpressionRoundTrip(sql);
    }
  });
});

describe('parser: function calls and windows', () => {
  it('reads count(*), DISTINCT, FILTER and ORDER BY inside the call', () => {
    expect(expr('count(*)')).to.deep.include({ starArg: true, args: [] });
    expect(expr('count(DISTINCT x)')).to.deep.include({ distinct: true });
    expect(expr('count(ALL x)')).to.deep.include({ distinct: false });
    const filtered = parseExpression('sum(x) FILTER (WHERE x > 0)');
    expect(filtered.kind === 'FunctionCall' && filtered.filter?.kind).to.equal('Comparison');
    const ordered = parseExpression('array_agg(x ORDER BY y DESC)');
    expect(ordered.kind === 'FunctionCall' && ordered.orderBy?.map((s) => s.ordering)).to.deep.equal(['DESC']);
  });

  it('reads OVER with partitioning, ordering and frames', () => {
    const e = parseExpression(
      'sum(x) OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST ROWS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING)',
    );
    if (e.kind !== 'FunctionCall' || !e.window || e.window.kind !== 'WindowSpecification') throw new Error('no window');
    const w = stripLocations(e.window);
    expect(w.partitionBy).to.have.length(2);
    expect(w.orderBy).to.deep.equal([
      { kind: 'SortItem', key: { kind: 'Identifier', value: 'c', quoted: false }, ordering: 'DESC', nullOrdering: 'FIRST' },
    ]);
    expect(w.frame).to.deep.equal({
      kind: 'WindowFrame',
      unit: 'ROWS',
      start: { kind: 'FrameBound', type: 'PRECEDING', value: { kind: 'LongLiteral', value: 2n, text: '2' } },
      end: { kind: 'FrameBound', type: 'UNBOUNDED_FOLLOWING' },
    });
  });

  it('reads frames without BETWEEN, GROUPS / RANGE units, named windows and null treatment', () => {
    const frame = (sql: string) => {
      const e = parseExpression(sql);
      if (e.kind !== 'FunctionCall' || !e.window || e.window.kind !== 'WindowSpecification') throw new Error('no window');
      return stripLocations(e.window);
    };
    expect(frame('rank() OVER (RANGE UNBOUNDED PRECEDING)').frame).to.deep.equal({
      kind: 'WindowFrame',
      unit: 'RANGE',
      start: { kind: 'FrameBound', type: 'UNBOUNDED_PRECEDING' },
    });
    expect(frame('rank() OVER (ORDER BY x GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING)').frame?.unit).to.equal('GROUPS');
    expect(frame('rank() OVER (w ORDER BY x)').existingWindowName?.value).to.equal('w');
    expect(expr('rank() OVER w')).to.deep.include({ window: { kind: 'Identifier', value: 'w', quoted: false } });
    expect(expr('lag(x) IGNORE NULLS OVER (ORDER BY y)')).to.deep.include({ nullTreatment: 'IGNORE' });
    expect(expr('first_value(x) RESPECT NULLS OVER ()')).to.deep.include({ nullTreatment: 'RESPECT' });
  });

  it('round-trips function calls with all their clauses', () => {
    for (const sql of [
      'count(*) FILTER (WHERE a > 1)',
      'sum(DISTINCT x)',
      'array_agg(x ORDER BY y DESC NULLS LAST)',
      'rank() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
      'avg(x) OVER (w RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
      'lag(x, 1) IGNORE NULLS OVER w',
      'max(x) OVER ()',
    ]) {
      expectExpressionRoundTrip(sql);
    }
  });
});
