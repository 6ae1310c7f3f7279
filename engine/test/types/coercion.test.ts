import { expect } from 'chai';
import { canCoerce, commonSuperType, parseTypeSpec } from '../../src/types/coercion.js';
import { type SqlType, typeName } from '../../src/types/types.js';

const t = (name: string, ...params: number[]): SqlType => parseTypeSpec(name, params);
const superName = (a: SqlType, b: SqlType): string | undefined => {
  const s = commonSuperType(a, b);
  return s === undefined ? undefined : typeName(s);
};

describe('implicit coercions', () => {
  it('widens integral types along tinyint < smallint < integer < bigint', () => {
    expect(canCoerce(t('tinyint'), t('smallint'))).to.equal(true);
    expect(canCoerce(t('smallint'), t('bigint'))).to.equal(true);
    expect(canCoerce(t('integer'), t('bigint'))).to.equal(true);
    expect(canCoerce(t('bigint'), t('integer'))).to.equal(false);
    expect(canCoerce(t('integer'), t('real'))).to.equal(true);
    expect(canCoerce(t('bigint'), t('double'))).to.equal(true);
    expect(canCoerce(t('double'), t('real'))).to.equal(false);
    expect(canCoerce(t('real'), t('double'))).to.equal(true);
  });

  it('coerces integral types to decimals of their precision or wider', () => {
    expect(canCoerce(t('tinyint'), t('decimal', 3, 0))).to.equal(true);
    expect(canCoerce(t('smallint'), t('decimal', 5, 0))).to.equal(true);
    expect(canCoerce(t('integer'), t('decimal', 10, 0))).to.equal(true);
    expect(canCoerce(t('integer'), t('decimal', 9, 0))).to.equal(false);
    expect(canCoerce(t('integer'), t('decimal', 12, 2))).to.equal(true);
    expect(canCoerce(t('bigint'), t('decimal', 19, 0))).to.equal(true);
    expect(canCoerce(t('bigint'), t('decimal', 18, 0))).to.equal(false);
    expect(superName(t('integer'), t('decimal', 5, 2))).to.equal('decimal(12,2)');
    expect(superName(t('bigint'), t('decimal', 38, 2))).to.equal('decimal(38,2)');
  });

  it('widens decimals and meets decimal with floating point at the floating type', () => {
    expect(superName(t('decimal', 5, 2), t('decimal', 10, 0))).to.equal('decimal(12,2)');
    expect(superName(t('decimal', 38, 0), t('decimal', 10, 5))).to.equal('decimal(38,5)');
    expect(canCoerce(t('decimal', 5, 2), t('decimal', 6, 3))).to.equal(true);
    expect(canCoerce(t('decimal', 5, 2), t('decimal', 5, 3))).to.equal(false);
    expect(superName(t('decimal', 5, 2), t('double'))).to.equal('double');
    expect(superName(t('decimal', 5, 2), t('real'))).to.equal('real');
    expect(superName(t('real'), t('bigint'))).to.equal('real');
    expect(superName(t('double'), t('real'))).to.equal('double');
  });

  it('widens varchar and char lengths; char coerces to varchar', () => {
    expect(superName(t('varchar', 3), t('varchar', 10))).to.equal('varchar(10)');
    expect(superName(t('varchar', 3), t('varchar'))).to.equal('varchar');
    expect(superName(t('char', 3), t('char', 5))).to.equal('char(5)');
    expect(superName(t('char', 3), t('varchar', 5))).to.equal('varchar(5)');
    expect(superName(t('char', 7), t('varchar', 5))).to.equal('varchar(7)');
    expect(canCoerce(t('char', 3), t('varchar'))).to.equal(true);
    expect(canCoerce(t('varchar', 3), t('char', 3))).to.equal(false);
    expect(canCoerce(t('varchar', 10), t('varchar', 5))).to.equal(false);
  });

  it('lets NULL (unknown) coerce to everything', () => {
    for (const target of [t('integer'), t('varchar', 2), t('decimal', 10, 2), t('date'), t('boolean'), t('interval day to second')]) {
      expect(canCoerce({ kind: 'unknown' }, target)).to.equal(true);
      expect(superName({ kind: 'unknown' }, target)).to.equal(typeName(target));
      expect(superName(target, { kind: 'unknown' })).to.equal(typeName(target));
    }
  });

  it('widens date to timestamp and timestamp precisions', () => {
    expect(superName(t('date'), t('timestamp', 3))).to.equal('timestamp(3)');
    expect(superName(t('timestamp', 6), t('date'))).to.equal('timestamp(6)');
    expect(superName(t('timestamp', 0), t('timestamp', 6))).to.equal('timestamp(6)');
    expect(canCoerce(t('timestamp', 3), t('date'))).to.equal(false);
    expect(superName(t('time', 0), t('time', 3))).to.equal('time(3)');
  });

  it('finds no common type between unrelated types', () => {
    expect(superName(t('varchar', 1), t('integer'))).to.equal(undefined);
    expect(superName(t('boolean'), t('integer'))).to.equal(undefined);
    expect(superName(t('date'), t('varchar'))).to.equal(undefined);
    expect(superName(t('interval year to month'), t('interval day to second'))).to.equal(undefined);
  });
});

describe('parseTypeSpec', () => {
  it('applies Trino defaults and synonyms', () => {
    expect(typeName(t('decimal'))).to.equal('decimal(38,0)');
    expect(typeName(t('decimal', 10))).to.equal('decimal(10,0)');
    expect(typeName(t('timestamp'))).to.equal('timestamp(3)');
    expect(typeName(t('time'))).to.equal('time(3)');
    expect(typeName(t('char'))).to.equal('char(1)');
    expect(typeName(t('varchar'))).to.equal('varchar');
    expect(typeName(t('int'))).to.equal('integer');
    expect(typeName(t('double precision'))).to.equal('double');
    expect(typeName(t('interval year to month'))).to.equal('interval year to month');
  });

  it('rejects unknown types, bad parameters and unsupported types', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return `${(e as { errorName: string }).errorName}: ${(e as Error).message}`;
      }
      return 'no error';
    };
    expect(err(() => t('xyz'))).to.equal('TYPE_NOT_FOUND: Unknown type: xyz');
    expect(err(() => t('decimal', 39, 0))).to.equal('INVALID_FUNCTION_ARGUMENT: DECIMAL precision must be in range [1, 38]: 39');
    expect(err(() => t('decimal', 5, 6))).to.equal('INVALID_FUNCTION_ARGUMENT: DECIMAL scale must be in range [0, precision (5)]: 6');
    expect(err(() => t('timestamp with time zone', 13))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: TIMESTAMP WITH TIME ZONE precision must be in range [0, 12]: 13',
    );
    expect(err(() => t('timestamp', 13))).to.equal('INVALID_FUNCTION_ARGUMENT: TIMESTAMP precision must be in range [0, 12]: 13');
    expect(err(() => t('timestamp', 12))).to.equal('no error');
    expect(err(() => t('integer', 3))).to.match(/^TYPE_NOT_FOUND/);
  });
});
