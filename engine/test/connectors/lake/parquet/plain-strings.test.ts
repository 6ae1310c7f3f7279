// Plain-encoded string pages decoded straight from the page when ASCII (plain-strings.ts), and the
// pages that are not (a non-ASCII value, or a value of 128+ bytes whose length prefix is not ASCII)
// decoded as before: every value as DuckDB reads the same file, dictionary and plain pages, NULLs,
// empty strings; the direct decoder against the old path on the same bytes. With picks (the rows a
// filter on another column left), only the picked values are made.

import { expect } from 'chai';
import { decodeStrings } from '../../../../src/columnar/utf8-strings.js';
import { plainAsciiStrings } from '../../../../src/connectors/hive/formats/parquet/plain-strings.js';
import { decodePlain } from '../../../../src/connectors/hive/formats/parquet/physical-values.js';
import { PhysicalType } from '../../../../src/connectors/hive/formats/parquet/parquet-constants.js';
import { duckDbRows, LakeFixture } from '../lake-fixture.js';

/** Strings as a plain BYTE_ARRAY page holds them: each after its 4-byte little-endian length. */
function plainPage(values: readonly string[]): Uint8Array {
  const encoded = values.map((v) => Buffer.from(v, 'utf8'));
  const out = Buffer.alloc(encoded.reduce((n, b) => n + 4 + b.length, 0));
  let p = 0;
  for (const b of encoded) {
    out.writeUInt32LE(b.length, p);
    b.copy(out, p + 4);
    p += 4 + b.length;
  }
  return new Uint8Array(out);
}

/** The values through the old path: compacted by decodePlain, then decodeStrings. */
function oldPath(page: Uint8Array, count: number): string[] {
  const bytes = decodePlain(PhysicalType.ByteArray, 0, page, 0, page.length, count);
  if (bytes.kind !== 'bytes') throw new Error('not bytes');
  return decodeStrings(bytes.offsets, bytes.data, count);
}

describe('Parquet plain strings', () => {
  it('ASCII pages decode as the old path does; others are left to it', () => {
    const ascii = ['', 'a', 'x'.repeat(31), 'y'.repeat(33), 'z'.repeat(127), 'carefully final deposits', ''];
    const page = plainPage(ascii);
    expect(plainAsciiStrings(page, 0, page.length, ascii.length)).to.deep.equal(oldPath(page, ascii.length));
    expect(plainAsciiStrings(page, 0, page.length, ascii.length)).to.deep.equal(ascii);
    expect(plainAsciiStrings(page, 0, page.length, 0)).to.deep.equal([]);
    for (const other of [['abc', 'é'], ['abc', 'w'.repeat(128)], ['😀']]) {
      const p = plainPage(other);
      expect(plainAsciiStrings(p, 0, p.length, other.length), other.join()).to.equal(undefined);
      expect(oldPath(p, other.length)).to.deep.equal(other);
    }
  });

  it('picks make only the values at the picked positions', () => {
    const values = Array.from({ length: 40 }, (_, i) => `v${i}${'x'.repeat(i % 9)}`);
    const page = plainPage(values);
    // Rows 103, 105, ... of the row group; the page starts at row 100, and the picks are rows[1..4).
    const rows = Int32Array.from([90, 103, 117, 139, 150]);
    const picked = plainAsciiStrings(page, 0, page.length, values.length, undefined, { rows, from: 1, to: 4, first: 100 });
    expect(picked).to.have.length(values.length);
    expect([3, 17, 39].map((i) => picked![i])).to.deep.equal([values[3], values[17], values[39]]);
    expect(picked!.filter((v) => v !== undefined)).to.have.length(3);
    expect(() => plainAsciiStrings(page, 0, page.length - 1, values.length, undefined, { rows, from: 1, to: 4, first: 100 })).to.throw(
      /past the end of the page/,
    );
  });

  it('a page shorter than its values fails as the old path does', () => {
    const page = plainPage(['abcdef', 'ghi']);
    expect(() => plainAsciiStrings(page, 0, page.length - 1, 2)).to.throw(/past the end of the page/);
    expect(() => plainAsciiStrings(page, 0, 2, 1)).to.throw(/past the end of the page/);
  });

  describe('through lake tables, as DuckDB reads the same files', () => {
    let lake: LakeFixture;
    before(() => {
      lake = LakeFixture.create();
    });
    after(() => lake.remove());

    const select = [
      'i',
      "CASE WHEN i % 11 = 0 THEN NULL WHEN i % 7 = 0 THEN '' ELSE 'comment ' || repeat(chr((97 + i % 26)::INTEGER), (i % 40)::INTEGER) END AS ascii",
      // A non-ASCII value every 500 rows: its page takes the old path, the others do not.
      "CASE WHEN i % 500 = 7 THEN 'é' || i ELSE 'v' || i END AS sometimes",
      // Values of 128+ bytes: their length prefixes are not ASCII.
      "repeat('q', (100 + i % 60)::INTEGER) AS long_values",
      // ASCII without NULLs: a filter on another column makes only its kept rows' strings (picks).
      "'note ' || i || repeat('z', (i % 17)::INTEGER) AS dense_ascii",
    ].join(', ');
    /** Rows i with i % 5 in {1, 3}: 40% of every page. */
    const scattered = Array.from({ length: 3000 }, (_, i) => i)
      .filter((i) => i % 5 === 1 || i % 5 === 3)
      .join(', ');
    for (const [label, options] of [
      ['plain pages', 'DICTIONARY_SIZE_LIMIT 1, ROW_GROUP_SIZE 1000'],
      ['dictionaries', 'ROW_GROUP_SIZE 1000'],
    ]) {
      it(label, async () => {
        const name = label.replace(' ', '_');
        const { path, table } = await lake.duckDbTable(name, select, options);
        const ours = await lake.rows(`SELECT i, ascii, sometimes, long_values FROM ${table} ORDER BY i`);
        const duck = await duckDbRows(`SELECT i::VARCHAR, ascii, sometimes, long_values FROM read_parquet('${path}') ORDER BY i`);
        expect(ours.length).to.equal(3000);
        expect(ours.map((r) => r.map((v) => (v === null ? null : String(v))))).to.deep.equal(duck);
        // A pushed-down filter on such a column tests the directly decoded values.
        const filtered = await lake.rows(`SELECT count(*) FROM ${table} WHERE ascii = 'comment bbb' OR sometimes = 'é507'`);
        const [[expected]] = await duckDbRows(
          `SELECT count(*)::VARCHAR FROM read_parquet('${path}') WHERE ascii = 'comment bbb' OR sometimes = 'é507'`,
        );
        expect(filtered.map((r) => String(r[0]))).to.deep.equal([expected]);
        // A pushed-down filter on another column keeping 40% of the rows, scattered: the strings are
        // made for those rows alone (picks), whatever share of a page they are.
        const kept = await lake.rows(
          `SELECT i, ascii, sometimes, long_values, dense_ascii FROM ${table} WHERE i IN (${scattered}) ORDER BY i`,
        );
        const keptByDuck = await duckDbRows(
          `SELECT i::VARCHAR, ascii, sometimes, long_values, dense_ascii FROM read_parquet('${path}') WHERE i IN (${scattered}) ORDER BY i`,
        );
        expect(kept.length).to.equal(1200);
        expect(kept.map((r) => r.map((v) => (v === null ? null : String(v))))).to.deep.equal(keptByDuck);
      });
    }
  });
});
