// Pages through the Arrow IPC stream the exchange sends: every type survives exactly, zero-row pages
// and several pages share one stream, and a damaged stream is a PAGE_TRANSPORT_ERROR, not a crash.

import { expect } from 'chai';
import { RecordBatchStreamReader } from 'apache-arrow';
import { EngineError } from '../../src/errors/engine-error.js';
import { deserializePages, PageSerializer, readPageStream, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { emptyPage, slicePage, type Page } from '../../src/columnar/page.js';
import type { SqlType } from '../../src/types/types.js';
import { ALL_TYPES, allTypesPage, expectSamePage } from './all-types.js';

function stream(serializer: PageSerializer, pages: Parameters<PageSerializer['serialize']>[0][]): Uint8Array {
  return Buffer.concat(streamChunks(pages.map((p) => serializer.serialize(p))));
}

describe('exchange page codec (Arrow IPC)', () => {
  it('round-trips every type, edge values and NULLs exactly', () => {
    const page = allTypesPage();
    const { types, pages } = deserializePages(stream(new PageSerializer(ALL_TYPES), [page]));
    expect(types).to.deep.equal(ALL_TYPES);
    expect(pages).to.have.length(1);
    expectSamePage(pages[0], page);
  });

  it('carries several pages, including zero-row ones, in one stream in order', () => {
    const page = allTypesPage();
    const parts = [slicePage(page, 0, 2), emptyPage(ALL_TYPES), slicePage(page, 2, 6), slicePage(page, 5, 6)];
    const { pages } = deserializePages(stream(new PageSerializer(ALL_TYPES), parts));
    expect(pages.map((p) => p.rowCount)).to.deep.equal([2, 0, 4, 1]);
    parts.forEach((expected, i) => expectSamePage(pages[i], expected));
  });

  it('gives producers of layouts that differ only in a type parameter each their own schema', () => {
    const layouts: SqlType[][] = [
      [
        { kind: 'decimal', precision: 12, scale: 2 },
        { kind: 'varchar', length: 3 },
      ],
      [
        { kind: 'decimal', precision: 12, scale: 4 },
        { kind: 'varchar', length: 3 },
      ],
      [{ kind: 'decimal', precision: 12, scale: 2 }, { kind: 'varchar' }],
    ];
    // Each layout twice: a second producer of a layout shares its schema message, never another's.
    for (const layout of [...layouts, ...layouts]) {
      const { types, pages } = deserializePages(stream(new PageSerializer(layout), [emptyPage(layout)]));
      expect(types).to.deep.equal(layout);
      expect(pages.map((p) => p.rowCount)).to.deep.equal([0]);
    }
  });

  it('writes a standard Arrow IPC stream that another Arrow reader reads', () => {
    const bytes = stream(new PageSerializer(ALL_TYPES), [allTypesPage(), allTypesPage()]);
    const batches = [...RecordBatchStreamReader.from(bytes)];
    expect(batches.map((b) => b.numRows)).to.deep.equal([6, 6]);
    expect(batches[0].schema.fields.map((f) => f.name)).to.have.length(ALL_TYPES.length);
  });

  it('decodes a stream page by page: the pages before a damaged one come out before its error', () => {
    const page = allTypesPage();
    const bytes = stream(new PageSerializer(ALL_TYPES), [page, page, page]);
    const { types, pages } = readPageStream(bytes.subarray(0, bytes.length - 100));
    expect(types).to.deep.equal(ALL_TYPES);
    expectSamePage(pages.next().value as Page, page);
    expectSamePage(pages.next().value as Page, page);
    let error: unknown;
    try {
      pages.next();
    } catch (e) {
      error = e;
    }
    expect((error as EngineError).errorName).to.equal('PAGE_TRANSPORT_ERROR');
  });

  it('decodes fixed-width columns as views of the received body, without copying', () => {
    const page = allTypesPage();
    const body = new Uint8Array(stream(new PageSerializer(ALL_TYPES), [page])); // 8-byte aligned, as a fetched body is
    const [decoded] = deserializePages(body).pages;
    const shared = ['tinyint', 'smallint', 'integer', 'bigint', 'real', 'double', 'date', 'interval year to month'];
    const columns = decoded.columns.filter((c) => shared.includes(c.type.kind));
    expect(columns).to.have.length(shared.length);
    for (const c of columns) expect((c.values as Int32Array).buffer, c.type.kind).to.equal(body.buffer);
  });

  it('refuses a truncated or foreign body with PAGE_TRANSPORT_ERROR', () => {
    const bytes = stream(new PageSerializer(ALL_TYPES), [allTypesPage()]);
    for (const bad of [bytes.subarray(0, bytes.length - 100), new TextEncoder().encode('{"error":"not arrow"}'), new Uint8Array(0)]) {
      let error: unknown;
      try {
        deserializePages(bad);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(EngineError);
      expect((error as EngineError).errorName).to.equal('PAGE_TRANSPORT_ERROR');
    }
  });
});
