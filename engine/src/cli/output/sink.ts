// Where printers write: the terminal or a pipe through OutputSink, which waits when the stream is full
// so printing a large result keeps memory flat; or a string (TextBuffer), for a printer that decides
// after printing (AUTO).

import { once } from 'node:events';

const decoder = new TextDecoder();

export interface TextOutput {
  write(text: string): Promise<void>;
  /** UTF-8 text already encoded. */
  writeBytes(bytes: Uint8Array): Promise<void>;
}

export class OutputSink implements TextOutput {
  constructor(private readonly stream: NodeJS.WritableStream) {}

  async write(text: string): Promise<void> {
    if (text === '') return;
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  async writeBytes(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0) return;
    if (!this.stream.write(bytes)) await once(this.stream, 'drain');
  }
}

export class TextBuffer implements TextOutput {
  text = '';

  async write(text: string): Promise<void> {
    this.text += text;
  }

  async writeBytes(bytes: Uint8Array): Promise<void> {
    this.text += decoder.decode(bytes);
  }

  /** Hands the text over and empties the buffer. */
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}
