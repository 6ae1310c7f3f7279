// A chunk output that also tests each placed row against a pushed-down domain, clearing keep[row]
// for the rows that cannot satisfy it. A dictionary page without NULLs is tested through its
// dictionary (each entry once, then one lookup per row placed: the whole page, or the wanted rows
// taken from it, or picked: ChunkOutput.picks); other rows are tested by value once the chunk is
// decoded (spi/domain/exclude-rows.ts).

import type { Column } from '../../../../columnar/page.js';
import type { SqlType } from '../../../../types/types.js';
import type { ChunkOutput, DecodedPage, RowPicks } from './column-chunk-decoder.js';
import type { PreparedDomain } from '../../../../spi/domain/prepared-domain.js';
import { appendRange } from './row-ranges.js';
import { excludeRows } from '../../../../spi/domain/exclude-rows.js';

export class DomainTestingOutput implements ChunkOutput {
  private dictionary: DecodedPage['dictionary'];
  /** 1 for each entry of `dictionary` that can satisfy the domain. */
  private entryKeep = new Uint8Array(0);
  /** Whether every entry of `dictionary` can satisfy the domain (its pages then drop no row). */
  private keepsAll = false;
  /** Output rows placed from pages the dictionary did not decide. */
  private readonly byValue: [number, number][] = [];

  /** `wanted`: the row group's rows `inner` places (a SelectedRowsOutput's), when not all of its selected rows. */
  constructor(
    private readonly type: SqlType,
    private readonly inner: ChunkOutput,
    private readonly domain: PreparedDomain,
    private readonly keep: Uint8Array,
    private readonly wanted?: Int32Array,
  ) {}

  done(): boolean {
    return this.inner.done();
  }

  wants(start: number, end: number): boolean {
    return this.inner.wants(start, end);
  }

  placed(): number {
    return this.inner.placed();
  }

  /** The inner output's picks when it places only the rows `wanted` (a picked page holds their indices or strings alone). */
  picks(first: number, rowCount: number): RowPicks | undefined {
    return this.wanted === undefined ? undefined : this.inner.picks?.(first, rowCount);
  }

  append(first: number, page: DecodedPage): void {
    const at = this.inner.placed();
    this.inner.append(first, page);
    const end = this.inner.placed();
    if (end === at) return;
    // A picked page (only with `wanted`, never whole) has the indices (tested below) or strings (tested by value) of the rows wanted.
    if (page.indices === undefined || page.defined !== null) appendRange(this.byValue, at, end);
    else if (end - at === page.rowCount) this.testByDictionary(page.dictionary!, page.indices, at, end, undefined, first);
    else if (this.wanted !== undefined) this.testByDictionary(page.dictionary!, page.indices, at, end, this.wanted, first);
    else appendRange(this.byValue, at, end);
  }

  build(): Column {
    const column = this.inner.build();
    for (const [start, end] of this.byValue) {
      const rows = end - start;
      const values = column.values;
      const slice = {
        type: column.type,
        length: rows,
        values: Array.isArray(values) ? values.slice(start, end) : values.subarray(start, end),
        nulls: column.nulls?.subarray(start, end) ?? null,
      } as Column;
      excludeRows(slice, this.domain, this.keep.subarray(start, end));
    }
    return column;
  }

  /** Output rows [at, end): the page's rows in order, or (with `wanted`) page rows wanted[j] - first. */
  private testByDictionary(
    dictionary: NonNullable<DecodedPage['dictionary']>,
    indices: Int32Array,
    at: number,
    end: number,
    wanted: Int32Array | undefined,
    first: number,
  ): void {
    if (dictionary !== this.dictionary) {
      this.dictionary = dictionary;
      this.entryKeep = new Uint8Array(dictionary.length).fill(1);
      excludeRows({ type: this.type, length: dictionary.length, values: dictionary, nulls: null }, this.domain, this.entryKeep);
      this.keepsAll = this.entryKeep.every((k) => k === 1);
    }
    if (this.keepsAll) return;
    const { keep, entryKeep } = this;
    if (wanted === undefined) for (let j = at; j < end; j++) keep[j] &= entryKeep[indices[j - at]];
    else for (let j = at; j < end; j++) keep[j] &= entryKeep[indices[wanted[j] - first]];
  }
}
