import { expect } from 'chai';
import { isScalarFunctionName, listScalarFunctions, resolveOperator, resolveScalarFunction } from '../../src/functions/scalar/registry.js';
import { parseTypeSpec } from '../../src/types/parse-type.js';
import { type SqlType, typeName } from '../../src/types/types.js';
import { errorOf } from '../expression/eval-helpers.js';

const t = (name: string, ...params: number[]): SqlType => parseTypeSpec(name, params);
const shown = (s: { name: string; argumentTypes: SqlType[]; returnType: SqlType }) =>
  `${s.name}(${s.argumentTypes.map(typeName).join(', ')}): ${typeName(s.returnType)}`;

describe('scalar function resolution', () => {
  it('prefers exact matches, then the most specific coercion', () => {
    expect(shown(resolveScalarFunction('abs', [t('smallint')]))).to.equal('abs(smallint): smallint');
    expect(shown(resolveScalarFunction('abs', [t('decimal', 7, 3)]))).to.equal('abs(decimal(7,3)): decimal(7,3)');
    expect(shown(resolveScalarFunction('mod', [t('integer'), t('bigint')]))).to.equal('mod(bigint, bigint): bigint');
    expect(shown(resolveScalarFunction('sqrt', [t('integer')]))).to.equal('sqrt(double): double');
    expect(shown(resolveScalarFunction('power', [t('integer'), t('decimal', 3, 1)]))).to.equal('power(double, double): double');
    expect(shown(resolveScalarFunction('greatest', [t('integer'), t('bigint'), t('tinyint')]))).to.equal(
      'greatest(bigint, bigint, bigint): bigint',
    );
  });

  it('resolves aliases to the canonical name and is case-insensitive', () => {
    expect(resolveScalarFunction('CEILING', [t('double')]).name).to.equal('ceil');
    expect(resolveScalarFunction('substring', [t('varchar', 5), t('integer')]).name).to.equal('substr');
    expect(isScalarFunctionName('Lower')).to.equal(true);
    expect(isScalarFunctionName('sum')).to.equal(false);
  });

  it('computes parametric result types', () => {
    expect(shown(resolveScalarFunction('round', [t('decimal', 5, 2)]))).to.equal('round(decimal(5,2)): decimal(4,0)');
    expect(shown(resolveScalarFunction('round', [t('decimal', 5, 2), t('integer')]))).to.equal(
      'round(decimal(5,2), integer): decimal(6,2)',
    );
    expect(shown(resolveScalarFunction('round', [t('decimal', 38, 2), t('integer')]))).to.equal(
      'round(decimal(38,2), integer): decimal(38,2)',
    );
    expect(shown(resolveScalarFunction('floor', [t('decimal', 5, 0)]))).to.equal('floor(decimal(5,0)): decimal(5,0)');
    expect(shown(resolveScalarFunction('truncate', [t('decimal', 5, 2)]))).to.equal('truncate(decimal(5,2)): decimal(3,0)');
    expect(shown(resolveScalarFunction('sign', [t('decimal', 5, 2)]))).to.equal('sign(decimal(5,2)): decimal(1,0)');
    expect(shown(resolveScalarFunction('lower', [t('varchar', 7)]))).to.equal('lower(varchar(7)): varchar(7)');
    expect(shown(resolveScalarFunction('trim', [t('char', 3)]))).to.equal('trim(varchar(3)): varchar(3)');
    expect(shown(resolveScalarFunction('concat', [t('varchar', 3), t('varchar', 4)]))).to.equal(
      'concat(varchar(3), varchar(4)): varchar(7)',
    );
    expect(shown(resolveScalarFunction('concat', [t('varchar', 3), t('varchar')]))).to.equal('concat(varchar(3), varchar): varchar');
    expect(shown(resolveScalarFunction('date_trunc', [t('varchar', 5), t('timestamp', 6)]))).to.equal(
      'date_trunc(varchar(5), timestamp(6)): timestamp(6)',
    );
    expect(shown(resolveScalarFunction('year', [t('date')]))).to.equal('year(date): bigint');
  });

  it('reports unknown functions and wrong arguments as Trino does', () => {
    expect(errorOf(() => resolveScalarFunction('foo', [t('integer')]))).to.equal("FUNCTION_NOT_FOUND: Function 'foo' not registered");
    expect(errorOf(() => resolveScalarFunction('abs', [t('varchar', 3)]))).to.equal(
      'FUNCTION_NOT_FOUND: Unexpected parameters (varchar(3)) for function abs. Expected: abs(bigint), abs(decimal(p,s)), abs(double), abs(integer), abs(number), abs(real), abs(smallint), abs(tinyint)',
    );
    expect(errorOf(() => resolveScalarFunction('length', [t('integer'), t('integer')]))).to.match(
      /^FUNCTION_NOT_FOUND: Unexpected parameters \(integer, integer\) for function length/,
    );
    const located = (() => {
      try {
        resolveScalarFunction('foo', [], { line: 1, column: 8 });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(located).to.equal("line 1:8: Function 'foo' not registered");
  });
});

describe('operator resolution', () => {
  it('resolves arithmetic over numeric types with decimal result types', () => {
    expect(shown(resolveOperator('add', [t('integer'), t('integer')]))).to.equal('add(integer, integer): integer');
    expect(shown(resolveOperator('add', [t('tinyint'), t('smallint')]))).to.equal('add(smallint, smallint): smallint');
    expect(shown(resolveOperator('multiply', [t('decimal', 12, 2), t('decimal', 12, 2)]))).to.equal(
      'multiply(decimal(12,2), decimal(12,2)): decimal(24,4)',
    );
    expect(shown(resolveOperator('subtract', [t('bigint'), t('decimal', 5, 2)]))).to.equal(
      'subtract(decimal(19,0), decimal(5,2)): decimal(22,2)',
    );
    expect(shown(resolveOperator('divide', [t('decimal', 10, 2), t('double')]))).to.equal('divide(double, double): double');
    expect(shown(resolveOperator('add', [t('real'), t('bigint')]))).to.equal('add(real, real): real');
    expect(shown(resolveOperator('negate', [t('decimal', 4, 1)]))).to.equal('negate(decimal(4,1)): decimal(4,1)');
  });

  it('resolves date and interval arithmetic', () => {
    expect(shown(resolveOperator('add', [t('date'), t('interval day to second')]))).to.equal('add(date, interval day to second): date');
    expect(shown(resolveOperator('add', [t('interval year to month'), t('date')]))).to.equal('add(interval year to month, date): date');
    expect(shown(resolveOperator('subtract', [t('timestamp', 6), t('interval year to month')]))).to.equal(
      'subtract(timestamp(6), interval year to month): timestamp(6)',
    );
    expect(shown(resolveOperator('subtract', [t('timestamp', 3), t('timestamp', 3)]))).to.equal(
      'subtract(timestamp(3), timestamp(3)): interval day to second',
    );
    expect(shown(resolveOperator('multiply', [t('interval day to second'), t('integer')]))).to.equal(
      'multiply(interval day to second, bigint): interval day to second',
    );
    expect(errorOf(() => resolveOperator('subtract', [t('date'), t('date')]))).to.equal(
      'TYPE_MISMATCH: Cannot apply operator: date - date',
    );
  });

  it('compares at the common super type', () => {
    expect(shown(resolveOperator('equal', [t('integer'), t('decimal', 5, 2)]))).to.equal('equal(decimal(12,2), decimal(12,2)): boolean');
    expect(shown(resolveOperator('less_than', [t('date'), t('timestamp', 3)]))).to.equal('less_than(timestamp(3), timestamp(3)): boolean');
    expect(shown(resolveOperator('greater_than', [t('varchar', 2), t('char', 5)]))).to.equal(
      'greater_than(varchar(5), varchar(5)): boolean',
    );
    expect(shown(resolveOperator('is_distinct_from', [t('bigint'), { kind: 'unknown' }]))).to.equal(
      'is_distinct_from(bigint, bigint): boolean',
    );
    expect(shown(resolveOperator('concat', [t('varchar', 1), t('varchar', 2)]))).to.equal('concat(varchar(1), varchar(2)): varchar(3)');
  });

  it('reports impossible operators with Trino wording', () => {
    expect(errorOf(() => resolveOperator('add', [t('varchar', 1), t('integer')]))).to.equal(
      'TYPE_MISMATCH: Cannot apply operator: varchar(1) + integer',
    );
    expect(errorOf(() => resolveOperator('equal', [t('integer'), t('varchar', 1)]))).to.equal(
      'TYPE_MISMATCH: Cannot apply operator: integer = varchar(1)',
    );
    expect(errorOf(() => resolveOperator('greater_than', [t('boolean'), t('integer')]))).to.equal(
      'TYPE_MISMATCH: Cannot apply operator: boolean < integer',
    );
    expect(errorOf(() => resolveOperator('negate', [t('varchar')]))).to.equal('TYPE_MISMATCH: Cannot negate varchar');
    expect(errorOf(() => resolveOperator('is_distinct_from', [t('date'), t('integer')]))).to.equal(
      'TYPE_MISMATCH: Cannot check if date is distinct from integer',
    );
  });
});

describe('SHOW FUNCTIONS listing', () => {
  it('lists every function signature, sorted, without operators', () => {
    const list = listScalarFunctions();
    const names = list.map((f) => f.name);
    expect(names).to.deep.equal([...names].sort());
    expect(names).to.include.members(['abs', 'ceiling', 'concat', 'date_trunc', 'regexp_like', 'year', 'random']);
    expect(names).to.not.include('add');
    expect(list.find((f) => f.name === 'random')?.deterministic).to.equal(false);
    expect(list.find((f) => f.name === 'lower')).to.deep.include({
      returnType: 'varchar(x)',
      argumentTypes: ['varchar(x)'],
      functionType: 'scalar',
    });
    expect(list.find((f) => f.name === 'concat' && f.argumentTypes[0] === 'varchar(x)...')).to.not.equal(undefined);
  });

  it("lists the functions the analyzer translates itself with Trino's signatures (TypeOfFunction, DateTimeFunctions, the date casts)", () => {
    const shown = listScalarFunctions()
      .filter((f) => ['typeof', 'now', 'current_timezone', 'date'].includes(f.name))
      .map((f) => `${f.name}(${f.argumentTypes.join(', ')}) ${f.returnType}`);
    expect(shown).to.deep.equal([
      'current_timezone() varchar',
      'date(timestamp(p)) date',
      'date(timestamp(p) with time zone) date',
      'date(varchar(x)) date',
      'now() timestamp(3) with time zone',
      'typeof(T) varchar',
    ]);
  });
});
