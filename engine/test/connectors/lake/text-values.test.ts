// The in-place fast paths of the text formats give exactly what CAST(varchar AS type) gives (the
// slow path), value for value, and never take a text the cast refuses.

import { expect } from 'chai';
import { BadValue, TextColumnBuilder, textParser } from '../../../src/connectors/hive/formats/text/text-columns.js';
import { getScalar } from '../../../src/columnar/page.js';
import type { Scalar } from '../../../src/types/scalar.js';
import { castFunction } from '../../../src/types/casts.js';
import {
  BIGINT,
  BOOLEAN,
  DATE,
  decimal,
  DOUBLE,
  INTEGER,
  REAL,
  SMALLINT,
  typeName,
  VARCHAR,
  type SqlType,
} from '../../../src/types/types.js';

const TEXTS = [
  '0',
  '-0',
  '+5',
  '007',
  '1.',
  '.5',
  '-.5',
  '0.1',
  '1.25',
  '-12.345',
  '123456789012345',
  '1234567890123456',
  '9007199254740993',
  '-9223372036854775808',
  '9223372036854775808',
  '2147483647',
  '2147483648',
  '-2147483649',
  '32768',
  '1e3',
  ' 1',
  '1 ',
  '',
  '-',
  '.',
  'abc',
  '0.000001',
  '99999.99',
  '99999.995',
  '100000.00',
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '2024-1-5',
  '0001-01-01',
  'true',
  'false',
  'TRUE',
  't',
  '1',
  'NaN',
  'Infinity',
];
const TYPES: SqlType[] = [INTEGER, SMALLINT, BIGINT, DOUBLE, REAL, decimal(7, 2), decimal(18, 4), decimal(30, 2), DATE, BOOLEAN];

function slow(type: SqlType, text: string): Scalar | 'error' {
  try {
    return (castFunction(VARCHAR, type) as (t: string) => Scalar)(text);
  } catch {
    return 'error';
  }
}

function fast(type: SqlType, text: string): Scalar | 'error' {
  const builder = new TextColumnBuilder(type, textParser(type, 'c'), 4);
  try {
    builder.append(text);
    builder.appendRange(`x${text}y`, 1, text.length + 1);
  } catch (e) {
    if (e instanceof BadValue) return 'error';
    throw e;
  }
  const column = builder.take();
  const [a, b] = [getScalar(column, 0), getScalar(column, 1)];
  expect(Object.is(a, b) || a === b, `${typeName(type)} '${text}': append and appendRange agree`).to.equal(true);
  return a;
}

describe('lake: text values parsed in place equal CAST(varchar AS type)', () => {
  for (const type of TYPES) {
    it(typeName(type), () => {
      for (const text of TEXTS) {
        if (text === '') continue;
        const expected = slow(type, text);
        const actual = fast(type, text);
        expect(
          Object.is(actual, expected) || actual === expected,
          `${typeName(type)} '${text}': ${String(actual)} vs ${String(expected)}`,
        ).to.equal(true);
      }
    });
  }
});
