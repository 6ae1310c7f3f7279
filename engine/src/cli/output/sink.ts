// Writes to a stream and waits when it is full, so printing a large result keeps memory flat.

import { once } from 'node:events';

export class OutputSink {
  constructor(private readonly stream: NodeJS.WritableStream) {}

  async write(text: string): Promise<void> {
    if (text === '') return;
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
}
