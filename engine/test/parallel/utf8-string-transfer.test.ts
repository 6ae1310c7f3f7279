// String columns cross between threads as UTF-8 bytes and offsets (exec/threads/page-transfer.ts,
// columnar/utf8-strings.ts), and the results' JSON is written from those bytes (coordinator/json-rows.ts)
// without making a JS string per row. JSON.stringify of the strings as they were sent is the oracle:
// random strings of every kind of code unit (ASCII, quotes, backslashes, controls, non-ASCII, emoji,
// U+2028, lone surrogates) must come out byte for byte as it writes them.

import { expect } from 'chai';
import { columnSizeInBytes, getScalar, type Column, type Page } from '../../src/columnar/page.js';
import { checkedUtf8, utf8Column, wellFormedUtf8, type Utf8Column } from '../../src/columnar/utf8-strings.js';
import { encodeJsonRows } from '../../src/coordinator/json-rows.js';
import { roundTrip } from './parallel-helpers.js';
import { deserializePages, PageSerializer, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { VARCHAR, type SqlType } from '../../src/types/types.js';

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Code units that JSON treats differently: printable ASCII, quotes, backslashes, controls, DEL, 2- and 3-byte characters, U+2028/9, U+FFFF. */
const SPECIAL_UNITS = [
  0x22, 0x5c, 0x00, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x65e5, 0x2028, 0x2029, 0xfffd, 0xffff,
];

function randomString(next: () => number, loneSurrogates: boolean): string {
  const length = Math.floor(next() * 60);
  let text = '';
  while (text.length < length) {
    const pick = next();
    if (pick < 0.6) text += String.fromCharCode(0x20 + Math.floor(next() * 95));
    else if (pick < 0.8) text += String.fromCharCode(SPECIAL_UNITS[Math.floor(next() * SPECIAL_UNITS.length)]);
    else if (pick < 0.9) text += String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff));
    else if (pick < 0.95) text += String.fromCharCode(Math.floor(next() * 0xd800));
    else if (loneSurrogates) text += String.fromCharCode(0xd800 + Math.floor(next() * 0x800));
    else text += '\ud83d\ude00';
  }
  return text;
}

function varcharColumn(values: (string | null)[]): Column {
  const nulls = values.some((v) => v === null) ? Uint8Array.from(values, (v) => (v === null ? 1 : 0)) : null;
  return { type: VARCHAR, length: values.length, values: values.map((v) => v ?? ''), nulls };
}

/** The oracle: each row as JSON.stringify writes the array of its values, rows joined by commas. */
function stringified(rows: (string | null)[][]): string {
  return rows.map((row) => JSON.stringify(row)).join(',');
}

function jsonText(page: Page, types: readonly SqlType[]): string {
  const { bytes } = encodeJsonRows(page, types);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

describe('string columns between threads as UTF-8', () => {
  it('arrive as UTF-8 and are written to JSON from the bytes exactly as JSON.stringify writes the strings, without decoding them', async () => {
    const next = random(21);
    for (let round = 0; round < 20; round++) {
      const rows = Array.from({ length: 300 }, () => [
        next() < 0.1 ? null : randomString(next, false),
        next() < 0.1 ? null : String.fromCharCode(0x61 + Math.floor(next() * 26)).repeat(Math.floor(next() * 70)),
      ]);
      const page: Page = { rowCount: rows.length, columns: [0, 1].map((c) => varcharColumn(rows.map((row) => row[c]))) };
      const arrived = await roundTrip(page);
      for (const column of arrived.columns) expect(column.utf8, 'sent as UTF-8').to.not.equal(undefined);
      expect(jsonText(arrived, [VARCHAR, VARCHAR])).to.equal(stringified(rows));
      for (const column of arrived.columns) expect((column as Utf8Column).decoded, 'strings made by the JSON writer').to.equal(undefined);
      // Read as strings, the rows are the ones sent.
      expect(arrived.columns[0].values).to.deep.equal(page.columns[0].values);
      expect(rows.map((row, r) => [getScalar(arrived.columns[0], r), getScalar(arrived.columns[1], r)])).to.deep.equal(rows);
    }
  });

  it('clones a column with a lone surrogate as strings, whose JSON is then still JSON.stringify’s', async () => {
    const next = random(7);
    const rows = Array.from({ length: 200 }, () => [randomString(next, true)]);
    rows.push(['split pair \ud83d'], ['\ude00 across two rows'], ['\udbff']);
    expect(rows.some(([text]) => /[\ud800-\udfff]/.test(text))).to.equal(true);
    const arrived = await roundTrip({ rowCount: rows.length, columns: [varcharColumn(rows.map(([text]) => text))] });
    expect(arrived.columns[0].utf8).to.equal(undefined);
    expect(jsonText(arrived, [VARCHAR])).to.equal(stringified(rows));
    // A lone high surrogate at the end of one value and a low one at the start of the next join into a pair.
    expect(wellFormedUtf8(['a\ud83d', '\ude00b'], 2)).to.equal(undefined);
    expect(wellFormedUtf8(['a\ud83d\ude00', 'b'], 2)).to.not.equal(undefined);
  });

  it('sends a column whose slots hold no string (strings kept elsewhere, or a slot left empty) as it is', async () => {
    expect(wellFormedUtf8([], 2)).to.equal(undefined);
    expect(wellFormedUtf8(['a', , 'c'] as string[], 3)).to.equal(undefined);
    const arrived = await roundTrip({ rowCount: 2, columns: [{ type: VARCHAR, length: 2, values: [], nulls: null }] });
    expect(arrived.columns[0].utf8).to.equal(undefined);
    expect(arrived.columns[0].values).to.deep.equal([]);
  });

  it('sends on a UTF-8 column whose offsets do not start at 0 with its own rows only', async () => {
    const bytes = new Uint8Array(Buffer.from('xx"héllo"ab\\c€'));
    const offsets = Int32Array.from([2, 10, 12, bytes.length]);
    const column = utf8Column(VARCHAR, 3, Uint8Array.from([0, 1, 0]), { offsets, bytes, jsonPlain: false });
    const arrived = await roundTrip({ rowCount: 3, columns: [column] });
    expect(arrived.columns[0].utf8!.offsets[0]).to.equal(0);
    expect(jsonText(arrived, [VARCHAR])).to.equal(stringified([['"héllo"'], [null], ['\\c€']]));
    // The sender's column still holds its rows.
    expect(column.values).to.deep.equal(['"héllo"', 'ab', '\\c€']);
  });

  it('counts a UTF-8 column’s memory without decoding it, its strings too once read', async () => {
    const text = 'abc'.repeat(10);
    const arrived = await roundTrip({ rowCount: 100, columns: [varcharColumn(new Array(100).fill(text))] });
    const column = arrived.columns[0] as Utf8Column;
    const undecoded = columnSizeInBytes(column);
    expect(undecoded).to.equal(column.utf8.bytes.byteLength + column.utf8.offsets.byteLength);
    expect(column.decoded).to.equal(undefined);
    expect(column.values).to.have.length(100);
    expect(columnSizeInBytes(column)).to.be.greaterThan(undecoded + 100 * text.length);
  });

  it('drops the bytes from a copy made by spreading, which may hold other rows', async () => {
    const arrived = await roundTrip({ rowCount: 2, columns: [varcharColumn(['a', 'b'])] });
    const copy: Column = { ...arrived.columns[0], values: ['c', 'd'] };
    expect(copy.utf8).to.equal(undefined);
    expect(jsonText({ rowCount: 2, columns: [copy] }, [VARCHAR])).to.equal('["c"],["d"]');
  });

  it('keep their UTF-8 through the exchange (Arrow IPC) both ways, written to JSON as JSON.stringify writes them', async () => {
    const next = random(3);
    const rows = Array.from({ length: 500 }, () => [next() < 0.1 ? null : randomString(next, false)]);
    // Sent from a thread first: the serializer takes its bytes as they are.
    const fromThread = await roundTrip({ rowCount: rows.length, columns: [varcharColumn(rows.map(([text]) => text))] });
    for (const page of [fromThread, { rowCount: rows.length, columns: [varcharColumn(rows.map(([text]) => text))] }]) {
      const serializer = new PageSerializer([VARCHAR]);
      const { pages } = deserializePages(Buffer.concat(streamChunks([serializer.serialize(page)])));
      expect(pages[0].columns[0].utf8).to.not.equal(undefined);
      expect(jsonText(pages[0], [VARCHAR])).to.equal(stringified(rows));
      expect(pages[0].columns[0].values).to.deep.equal(rows.map(([text]) => text ?? ''));
    }
  });

  it('takes bytes from elsewhere as UTF-8 rows only when they are valid UTF-8 with every row starting at a character', () => {
    const bytes = new Uint8Array(Buffer.from('aé"b'));
    expect(checkedUtf8(Int32Array.from([0, 1, 3, 5]), bytes, 3)).to.deep.include({ jsonPlain: false });
    expect(checkedUtf8(Int32Array.from([0, 1, 3]), bytes, 2)).to.deep.include({ jsonPlain: true });
    // A row starting inside é, offsets going back, past the end, bytes that are not UTF-8.
    expect(checkedUtf8(Int32Array.from([0, 2, 5]), bytes, 2)).to.equal(undefined);
    expect(checkedUtf8(Int32Array.from([0, 3, 1]), bytes, 2)).to.equal(undefined);
    expect(checkedUtf8(Int32Array.from([0, 9]), bytes, 1)).to.equal(undefined);
    expect(checkedUtf8(Int32Array.from([0, 2]), Uint8Array.from([0x61, 0xff]), 1)).to.equal(undefined);
  });
});
