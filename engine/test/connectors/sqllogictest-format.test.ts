import { expect } from 'chai';
import {
  expectedHash,
  formatFixed3,
  formatValue,
  hashLine,
  hashValues,
  javaDoubleText,
  resultMatches,
  sortValues,
} from '../../scripts/sqllogictest/format.js';
import { parseJson } from '../../src/types/exact-json.js';
import { evaluateGates, gateMatches, parseGate } from '../../scripts/sqllogictest/report.js';
import { checkQuery, checkStatement, summarize, type FileResult } from '../../scripts/sqllogictest/runner.js';
import { parseTestFile, recordApplies, type TestRecord } from '../../scripts/sqllogictest/test-file.js';

const SAMPLE = [
  'hash-threshold 8',
  '',
  'statement ok',
  'CREATE TABLE t1(a INTEGER, b INTEGER)',
  '',
  '# a comment between records',
  'statement error',
  'SELECT * FROM nowhere',
  '',
  'statement error does not exist',
  'DROP TABLE nowhere',
  '',
  'query II rowsort label-1',
  'SELECT a,',
  '# a comment inside the SQL',
  '  b FROM t1',
  '----',
  '1',
  '2',
  '',
  'skipif mysql # not there',
  'onlyif engine',
  'query T valuesort',
  'SELECT x FROM t1',
  '----',
  '30 values hashing to 3c13dee48d9356ae19af2515e05e6b54',
  '',
  'query R',
  'SELECT 1.5',
  '',
  'query IX nosort',
  'SELECT 1',
  '',
  'frobnicate',
  '',
  'onlyif oracle',
  'halt',
  '',
  'halt',
].join('\r\n');

function record<K extends TestRecord['kind']>(records: TestRecord[], index: number, kind: K): Extract<TestRecord, { kind: K }> {
  const r = records[index];
  expect(r.kind).to.equal(kind);
  return r as Extract<TestRecord, { kind: K }>;
}

describe('sqllogictest format', () => {
  describe('parseTestFile', () => {
    const records = parseTestFile(SAMPLE);

    it('splits records at blank lines and skips comment lines', () => {
      expect(records.map((r) => r.kind)).to.deep.equal([
        'hash-threshold',
        'statement',
        'statement',
        'statement',
        'query',
        'query',
        'query',
        'invalid',
        'invalid',
        'halt',
        'halt',
      ]);
    });

    it('reads statements, expected errors and error patterns, with line numbers', () => {
      expect(record(records, 0, 'hash-threshold').threshold).to.equal(8);
      const ok = record(records, 1, 'statement');
      expect(ok).to.deep.include({ line: 3, expectError: false, sql: 'CREATE TABLE t1(a INTEGER, b INTEGER)' });
      expect(record(records, 2, 'statement')).to.deep.include({ line: 7, expectError: true, sql: 'SELECT * FROM nowhere' });
      expect(record(records, 2, 'statement').errorPattern).to.equal(undefined);
      expect(record(records, 3, 'statement').errorPattern).to.equal('does not exist');
    });

    it('reads a query: types, sort mode, label, multi-line SQL, expected values', () => {
      const q = record(records, 4, 'query');
      expect(q).to.deep.include({ line: 13, types: ['I', 'I'], sort: 'rowsort', label: 'label-1', sql: 'SELECT a,\n  b FROM t1' });
      expect(q.expected).to.deep.equal({ kind: 'values', values: ['1', '2'] });
      expect(q.conditions).to.deep.equal([]);
    });

    it('reads conditions and hashed results', () => {
      const q = record(records, 5, 'query');
      expect(q.conditions).to.deep.equal([
        { kind: 'skipif', engine: 'mysql' },
        { kind: 'onlyif', engine: 'engine' },
      ]);
      expect(q.sort).to.equal('valuesort');
      expect(q.expected).to.deep.equal({ kind: 'hash', count: 30, hash: '3c13dee48d9356ae19af2515e05e6b54' });
    });

    it('a query without ---- has no expected result and defaults to nosort', () => {
      const q = record(records, 6, 'query');
      expect(q).to.deep.include({ types: ['R'], sort: 'nosort', sql: 'SELECT 1.5', expected: null });
    });

    it('reports invalid records', () => {
      expect(record(records, 7, 'invalid').message).to.equal("unknown type character 'X' in type string");
      expect(record(records, 8, 'invalid').message).to.equal("unknown record type: 'frobnicate'");
      expect(record(records, 9, 'halt').conditions).to.deep.equal([{ kind: 'onlyif', engine: 'oracle' }]);
    });

    it('keeps labels to 20 characters, as the reference runner does', () => {
      const [q] = parseTestFile('query I nosort label-abcdefghijklmnopqrstuvwxyz\nSELECT 1\n----\n1\n');
      expect((q as Extract<TestRecord, { kind: 'query' }>).label).to.equal('label-abcdefghijklmn');
    });
  });

  describe('recordApplies', () => {
    const us = new Set(['engine', 'trino']);
    it('honours onlyif and skipif for our names', () => {
      expect(recordApplies([], us)).to.equal(true);
      expect(recordApplies([{ kind: 'onlyif', engine: 'sqlite' }], us)).to.equal(false);
      expect(recordApplies([{ kind: 'skipif', engine: 'sqlite' }], us)).to.equal(true);
      expect(recordApplies([{ kind: 'skipif', engine: 'trino' }], us)).to.equal(false);
      expect(recordApplies([{ kind: 'onlyif', engine: 'engine' }], us)).to.equal(true);
      expect(
        recordApplies(
          [
            { kind: 'skipif', engine: 'mysql' },
            { kind: 'onlyif', engine: 'mssql' },
          ],
          us,
        ),
      ).to.equal(false);
    });
  });

  describe('formatValue', () => {
    it('prints NULL for every letter', () => {
      expect(['I', 'R', 'T'].map((l) => formatValue(null, l as 'I'))).to.deep.equal(['NULL', 'NULL', 'NULL']);
    });

    it('I: integers, truncating toward zero; text by its numeric prefix; booleans as 1/0', () => {
      expect(formatValue(42, 'I')).to.equal('42');
      expect(formatValue(3.7, 'I')).to.equal('3');
      expect(formatValue(-3.7, 'I')).to.equal('-3');
      expect(formatValue(9223372036854775807n, 'I')).to.equal('9223372036854775807');
      expect(formatValue('12.50', 'I', 'decimal(4,2)')).to.equal('12');
      expect(formatValue('-0.50', 'I', 'decimal(3,2)')).to.equal('0');
      expect(formatValue('99999999999999999999999.5', 'I')).to.equal('9223372036854775807');
      expect(formatValue('abc', 'I')).to.equal('0');
      expect(formatValue(true, 'I')).to.equal('1');
      expect(formatValue(false, 'I')).to.equal('0');
      expect(formatValue(1e30, 'I')).to.equal('9223372036854775807');
    });

    it('R: three decimals like printf("%.3f")', () => {
      expect(formatValue(1, 'R')).to.equal('1.000');
      expect(formatValue(-2.5, 'R')).to.equal('-2.500');
      expect(formatValue(2 / 3, 'R')).to.equal('0.667');
      expect(formatValue('12.3456', 'R', 'decimal(6,4)')).to.equal('12.346');
      expect(formatValue(7n, 'R')).to.equal('7.000');
      expect(formatValue(true, 'R')).to.equal('1.000');
    });

    it('R: exact ties round to even as glibc does, NaN and infinities as printf spells them', () => {
      expect(formatFixed3(0.0625)).to.equal('0.062');
      expect(formatFixed3(0.1875)).to.equal('0.188');
      expect(formatFixed3(-0.0625)).to.equal('-0.062');
      expect(formatFixed3(1.0005)).to.equal('1.000'); // 1.0005 is just below the tie in binary
      expect(formatFixed3(1e22)).to.equal('10000000000000000000000.000');
      expect(formatFixed3(-0.0001)).to.equal('-0.000');
      expect([formatFixed3(Number.NaN), formatFixed3(Infinity), formatFixed3(-Infinity)]).to.deep.equal(['nan', 'inf', '-inf']);
    });

    it('T: text, (empty), and bytes outside printable ASCII as @', () => {
      expect(formatValue('table tn7 row 51', 'T')).to.equal('table tn7 row 51');
      expect(formatValue('', 'T')).to.equal('(empty)');
      expect(formatValue('a\tb', 'T')).to.equal('a@b');
      expect(formatValue('é', 'T')).to.equal('@@');
      expect(formatValue('€', 'T')).to.equal('@@@');
      expect(formatValue(true, 'T')).to.equal('true');
      expect(formatValue(5, 'T', 'integer')).to.equal('5');
      expect(formatValue(1, 'T', 'double')).to.equal('1.0');
    });

    it('T: doubles as Java prints them (Trino text form)', () => {
      expect(javaDoubleText(1.5)).to.equal('1.5');
      expect(javaDoubleText(100)).to.equal('100.0');
      expect(javaDoubleText(1e7)).to.equal('1.0E7');
      expect(javaDoubleText(1.5e-5)).to.equal('1.5E-5');
      expect(javaDoubleText(0.001)).to.equal('0.001');
      expect(javaDoubleText(-0)).to.equal('-0.0');
      expect(javaDoubleText(Number.NaN)).to.equal('NaN');
    });
  });

  describe('sorting and hashing', () => {
    it('rowsort sorts rows by strcmp of their values, valuesort every value, nosort keeps order', () => {
      const values = ['9', 'b', '10', 'a', '9', 'a'];
      expect(sortValues(values, 2, 'rowsort')).to.deep.equal(['10', 'a', '9', 'a', '9', 'b']);
      expect(sortValues(values, 2, 'valuesort')).to.deep.equal(['10', '9', '9', 'a', 'a', 'b']);
      expect(sortValues(values, 2, 'nosort')).to.deep.equal(values);
    });

    it('sorts by UTF-8 bytes, as strcmp does', () => {
      expect(sortValues(['\u{1F600}', '\uFFFD', 'Z'], 1, 'valuesort')).to.deep.equal(['Z', '\uFFFD', '\u{1F600}']);
    });

    it('hashes the md5 of each value followed by a newline', () => {
      expect(hashValues([])).to.equal('d41d8cd98f00b204e9800998ecf8427e');
      expect(hashValues(['a'])).to.equal('60b725f10c9c85c70d97880dfe8191b3');
      expect(hashLine(['1', '2', '3'])).to.equal('3 values hashing to c0710d6b4f15dfa88f600b0e6b624077');
    });

    it('matches listed and hashed expectations', () => {
      expect(resultMatches({ kind: 'values', values: ['1', '2'] }, ['1', '2'])).to.equal(true);
      expect(resultMatches({ kind: 'values', values: ['1', '2'] }, ['1'])).to.equal(false);
      expect(resultMatches({ kind: 'hash', count: 3, hash: 'c0710d6b4f15dfa88f600b0e6b624077' }, ['1', '2', '3'])).to.equal(true);
      expect(resultMatches({ kind: 'hash', count: 4, hash: 'c0710d6b4f15dfa88f600b0e6b624077' }, ['1', '2', '3'])).to.equal(false);
      expect(expectedHash({ kind: 'values', values: ['a'] })).to.equal('60b725f10c9c85c70d97880dfe8191b3');
    });
  });

  describe('checking outcomes', () => {
    const [statementOk, statementError, patterned, query, labelled] = parseTestFile(
      [
        'statement ok',
        'INSERT INTO t VALUES (1)',
        '',
        'statement error',
        'SELECT nope',
        '',
        'statement error cannot be resolved',
        'SELECT nope',
        '',
        'query IT rowsort',
        'SELECT a, b FROM t',
        '----',
        '1',
        '(empty)',
        '2',
        'NULL',
        '',
        'query I nosort label-x',
        'SELECT 1',
        '----',
        '1',
      ].join('\n'),
    ) as [
      Extract<TestRecord, { kind: 'statement' }>,
      Extract<TestRecord, { kind: 'statement' }>,
      Extract<TestRecord, { kind: 'statement' }>,
      Extract<TestRecord, { kind: 'query' }>,
      Extract<TestRecord, { kind: 'query' }>,
    ];
    const failed = { columns: [], rows: [], error: { message: "line 1:8: Column 'nope' cannot be resolved" } };
    const succeeded = { columns: [], rows: [] };

    it('checks statements against ok / error / error pattern', () => {
      expect(checkStatement(statementOk, succeeded)).to.equal(null);
      expect(checkStatement(statementOk, failed)?.actual).to.equal("error: line 1:8: Column 'nope' cannot be resolved");
      expect(checkStatement(statementError, failed)).to.equal(null);
      expect(checkStatement(statementError, succeeded)?.actual).to.equal('statement succeeded');
      expect(checkStatement(patterned, failed)).to.equal(null);
      expect(checkStatement(patterned, { ...failed, error: { message: 'other' } })?.expected).to.equal(
        'error matching /cannot be resolved/',
      );
    });

    it('formats, sorts and compares query rows', () => {
      const columns = [
        { name: 'a', type: 'integer' },
        { name: 'b', type: 'varchar' },
      ];
      const labels = new Map<string, string>();
      expect(
        checkQuery(
          query,
          {
            columns,
            rows: [
              [2, null],
              [1, ''],
            ],
          },
          0,
          labels,
        ),
      ).to.equal(null);
      const wrong = checkQuery(
        query,
        {
          columns,
          rows: [
            [2, 'x'],
            [1, ''],
          ],
        },
        0,
        labels,
      );
      expect(wrong).to.deep.equal({ expected: '1\n(empty)\n2\nNULL', actual: '1\n(empty)\n2\nx' });
      expect(checkQuery(query, { columns: columns.slice(0, 1), rows: [] }, 0, labels)?.actual).to.equal('1 columns');
      expect(checkQuery(query, failed, 0, labels)?.actual).to.match(/^error: /);
    });

    it('requires queries with the same label to agree', () => {
      const labels = new Map<string, string>();
      const one = { columns: [{ name: 'c', type: 'integer' }], rows: [[1]] };
      expect(checkQuery(labelled, one, 0, labels)).to.equal(null);
      expect(labels.get('label-x')).to.equal(hashValues(['1']));
      labels.set('label-x', hashValues(['2']));
      expect(checkQuery(labelled, one, 0, labels)?.actual).to.equal('labeled result [label-x] does not agree with previous values');
    });
  });

  describe('parseJson', () => {
    it('parses JSON, keeping integers beyond 2^53 exact as bigint', () => {
      expect(parseJson('{"data":[[9223372036854775807,-9223372036854775808,1,1.5,"x\\n\\u00e9",true,null]],"e":[]}')).to.deep.equal({
        data: [[9223372036854775807n, -9223372036854775808n, 1, 1.5, 'x\né', true, null]],
        e: [],
      });
      expect(parseJson(' 12345678901234567890e0 ')).to.equal(12345678901234567890);
    });

    it('rejects malformed JSON', () => {
      expect(() => parseJson('{"a":}')).to.throw(SyntaxError);
      expect(() => parseJson('[1] x')).to.throw(SyntaxError);
    });
  });

  describe('gates', () => {
    const file = (name: string, passed: number, failed: number): FileResult => ({
      file: `/corpus/${name}`,
      passed,
      failed,
      skipped: 3,
      failures: [],
      slowestPlans: [],
      planningMillis: 0,
      millis: 1,
    });
    const summary = summarize([file('select1.test', 98, 2), file('select2.test', 95, 5), file('evidence/in1.test', 1, 9)]);

    it('parses --gate and matches file names by prefix or glob', () => {
      expect(parseGate('select=97')).to.deep.equal({ pattern: 'select', percent: 97 });
      expect(() => parseGate('select')).to.throw(/bad --gate/);
      expect(() => parseGate('select=101')).to.throw(/bad --gate/);
      expect(gateMatches('select', '/x/select1.test')).to.equal(true);
      expect(gateMatches('select', '/x/in1.test')).to.equal(false);
      expect(gateMatches('in?.test', '/x/evidence/in1.test')).to.equal(true);
    });

    it('passes a gate on the pass rate of the matching files, skips not counted', () => {
      expect(summary).to.deep.include({ passed: 194, failed: 16, skipped: 9 });
      const [select, in1, none] = evaluateGates(summary, [parseGate('select=96'), parseGate('in=50'), parseGate('nothing=0')]);
      expect(select).to.deep.include({ passed: 193, failed: 7, ok: true });
      expect(select.percent).to.equal(96.5);
      expect(in1).to.deep.include({ ok: false, percent: 10 });
      expect(none.ok).to.equal(false);
    });
  });
});
