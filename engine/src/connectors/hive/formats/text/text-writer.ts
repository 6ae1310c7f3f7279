// Writes a text file (CSV, JSON lines) a page at a time: each page's rows become lines, encoded
// and sent to the output in chunks of about a megabyte.

import { EngineError } from '../../../../errors/engine-error.js';
import type { Page } from '../../../../columnar/page.js';
import type { OutputStream } from '../../file-system/file-system.js';
import type { FileWriter } from '../file-format.js';

const FLUSH_CHARS = 1 << 20;

/** Lines of a page's rows, each ending in `\n`. */
export type PageLines = (page: Page) => string;

export class TextWriter implements FileWriter {
  private buffered: string[] = [];
  private bufferedChars = 0;
  private rows = 0;
  private bytes = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly output: OutputStream,
    private readonly lines: PageLines,
    /** Text before the first row (a header line). */
    header = '',
  ) {
    if (header !== '') this.add(header);
  }

  get writtenBytes(): number {
    return this.bytes + this.bufferedChars;
  }

  /** Text held as JavaScript strings: two bytes a character. */
  get retainedBytes(): number {
    return 2 * this.bufferedChars;
  }

  async append(page: Page): Promise<void> {
    this.add(this.lines(page));
    this.rows += page.rowCount;
    if (this.bufferedChars >= FLUSH_CHARS) await this.flush();
  }

  async finish(): Promise<{ rows: number }> {
    await this.flush();
    await this.output.close();
    return { rows: this.rows };
  }

  abort(): Promise<void> {
    this.buffered = [];
    return this.output.abort();
  }

  private add(text: string): void {
    this.buffered.push(text);
    this.bufferedChars += text.length;
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const bytes = this.encoder.encode(this.buffered.join(''));
    this.buffered = [];
    this.bufferedChars = 0;
    try {
      await this.output.write(bytes);
    } catch (e) {
      if (e instanceof EngineError) throw e;
      throw new EngineError('HIVE_WRITER_DATA_ERROR', `Writing failed: ${(e as Error).message}`);
    }
    this.bytes += bytes.length;
  }
}
