// Splits CSV text into records and fields, in place: a record's fields are kept as offsets into the
// text (no per-row objects), and only the fields a query reads become strings. The rules are
// RFC 4180's as PostgreSQL and DuckDB read it: a field may be quoted; inside quotes a doubled quote is
// one quote, and the separator and line ends are text; an unquoted empty field is NULL, a quoted
// empty one is the empty string. With an escape character (csv_escape), it makes the next character
// literal, inside quotes or not. Lines end with \n or \r\n.

import type { TextColumnBuilder } from '../text/text-columns.js';

/** Why a record is malformed; the reader adds the file, line and column. */
export class MalformedRecord extends Error {
  constructor(
    message: string,
    /** Where in the text the problem is. */
    readonly position: number,
  ) {
    super(message);
  }
}

export interface CsvCharacters {
  separator: number;
  /** -1: no quoting. */
  quote: number;
  /** -1: no escape character (quotes are escaped by doubling them). */
  escape: number;
}

const LF = 10;
const CR = 13;
const PLAIN = 0;
const QUOTED = 1;
/** Quoted or not, with doubled quotes or escapes to remove. */
const ESCAPED = 2;

export class CsvRecords {
  /** Fields of the last record: [starts[i], ends[i]) of the text, and how to read them. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly kinds: Uint8Array;
  fieldCount = 0;
  /** Line ends passed so far (quoted ones included), to number the lines of errors. */
  lines = 0;

  constructor(
    private readonly chars: CsvCharacters,
    /** Fields beyond this many make the record malformed. */
    private readonly maxFields: number,
    /** Whether a quoted field may span lines (only when the whole file is read as one range). */
    private readonly multiline: boolean,
  ) {
    this.starts = new Int32Array(maxFields);
    this.ends = new Int32Array(maxFields);
    this.kinds = new Uint8Array(maxFields);
  }

  /**
   * Reads the record at `position` of `text`; returns the position after it, or -1 when the text ends
   * inside it and more text may follow (`final` false). Throws MalformedRecord.
   */
  next(text: string, position: number, final: boolean): number {
    const { separator, quote, escape } = this.chars;
    const length = text.length;
    let p = position;
    let fields = 0;
    let lines = 0;
    for (;;) {
      if (fields === this.maxFields)
        throw new MalformedRecord(`more than ${this.maxFields} fields: the table has ${this.maxFields} columns`, p);
      let kind = PLAIN;
      let start = p;
      let end: number;
      let c = p < length ? text.charCodeAt(p) : -1;
      if (c === quote) {
        kind = QUOTED;
        start = p + 1;
        let i = start;
        for (;;) {
          if (i >= length) {
            if (!final) return -1;
            throw new MalformedRecord('a quoted field is not closed before the end of the file', p);
          }
          const d = text.charCodeAt(i);
          if (d === escape && escape !== quote) {
            kind = ESCAPED;
            i += 2;
          } else if (d === quote) {
            if (i + 1 < length && text.charCodeAt(i + 1) === quote) {
              kind = ESCAPED;
              i += 2;
            } else if (i + 1 >= length && !final) {
              return -1;
            } else {
              break;
            }
          } else {
            if (d === LF) {
              if (!this.multiline)
                throw new MalformedRecord(
                  'a quoted field spans lines, which a file read in parallel ranges cannot have (records are lines, as in Trino)',
                  p,
                );
              lines++;
            }
            i++;
          }
        }
        end = i;
        p = i + 1;
        c = p < length ? text.charCodeAt(p) : -1;
        if (c === CR && p + 1 < length && text.charCodeAt(p + 1) === LF) c = text.charCodeAt(++p);
        if (c !== separator && c !== LF && c !== -1) throw new MalformedRecord(`unexpected text after a closing quote`, p);
      } else {
        let i = p;
        while (i < length) {
          c = text.charCodeAt(i);
          if (c === separator || c === LF) break;
          if (c === escape) {
            kind = ESCAPED;
            i++;
          }
          i++;
        }
        if (i >= length) {
          c = -1;
          if (!final) return -1;
        }
        end = i > start && i <= length && text.charCodeAt(i - 1) === CR && c === LF ? i - 1 : Math.min(i, length);
        p = i;
      }
      this.starts[fields] = start;
      this.ends[fields] = end;
      this.kinds[fields] = kind;
      fields++;
      if (c === separator) {
        p++;
        continue;
      }
      this.fieldCount = fields;
      if (c === LF) lines++;
      this.lines += lines;
      return c === LF ? p + 1 : length;
    }
  }

  /** Whether the last record is an empty line (skipped: not a row). */
  get isBlankLine(): boolean {
    return this.fieldCount === 1 && this.kinds[0] === PLAIN && this.starts[0] === this.ends[0];
  }

  /** Appends field i to a column: an unquoted field parsed in place, NULL for an unquoted empty one. */
  appendField(text: string, i: number, builder: TextColumnBuilder): void {
    const start = this.starts[i];
    const end = this.ends[i];
    if (this.kinds[i] !== PLAIN) builder.append(this.field(text, i)!);
    else if (start === end) builder.appendNull();
    else builder.appendRange(text, start, end);
  }

  /** Field i's text, or null for an unquoted empty field (NULL). */
  field(text: string, i: number): string | null {
    const start = this.starts[i];
    const end = this.ends[i];
    const kind = this.kinds[i];
    if (kind === PLAIN) return start === end ? null : text.slice(start, end);
    if (kind === QUOTED) return text.slice(start, end);
    return this.unescape(text.slice(start, end));
  }

  private unescape(raw: string): string {
    const { quote, escape } = this.chars;
    let out = '';
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if ((c === escape && escape !== quote) || (c === quote && raw.charCodeAt(i + 1) === quote)) i++;
      out += raw[i] ?? '';
    }
    return out;
  }
}
