// An exchange response's body decoded on one of the node's worker threads instead of the event
// loop: the body (an Arrow IPC stream of pages) is transferred to the least loaded thread, which
// decodes it and sends the pages back as page-transfer messages (its buffers transferred, strings
// as UTF-8), so the main thread only wraps them. Worth it for large bodies only: a small one
// decodes in less time than the round trip of two messages takes.

import { toEngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import { deserializePages } from '../exchange/page-codec.js';
import { decodePage, encodePage, type EncodedPage } from './page-transfer.js';
import { errorFromPayload, errorPayload, type DecodeStream, type ThreadToMain } from './thread-messages.js';
import { newJobId, type ThreadPool } from './thread-pool.js';

/** The decoded pages of `body` and the thread's CPU time. A body that owns its buffer whole is transferred (detached here), else copied. */
export function decodeStreamInThread(pool: ThreadPool, body: Uint8Array): Promise<{ pages: Page[]; cpuMillis: number }> {
  const owned =
    body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer ? body : body.slice();
  const [thread] = pool.acquire(1);
  const taskId = newJobId();
  return new Promise((resolve, reject) => {
    const message: DecodeStream = { type: 'decodeStream', taskId, body: owned };
    pool.startTask(
      thread,
      message,
      {
        onMessage: (answer) => {
          if (answer.type === 'decodedStream') resolve({ pages: answer.pages.map(decodePage), cpuMillis: answer.cpuMillis });
          else if (answer.type === 'failed') reject(errorFromPayload(answer.error));
        },
        onFailure: reject,
      },
      [owned.buffer as ArrayBuffer],
    );
  });
}

/** In the thread: the answer to a DecodeStream, with the buffers to transfer. A malformed body answers `failed` (PAGE_TRANSPORT_ERROR). */
export function decodeStream(request: DecodeStream): { message: ThreadToMain; transfer: ArrayBuffer[] } {
  const started = performance.now();
  const { taskId } = request;
  try {
    const pages: EncodedPage[] = [];
    const transfer: ArrayBuffer[] = [];
    for (const page of deserializePages(request.body).pages) {
      const encoded = encodePage(page);
      pages.push(encoded.page);
      transfer.push(...encoded.transfer);
    }
    return { message: { type: 'decodedStream', taskId, pages, cpuMillis: performance.now() - started }, transfer };
  } catch (e) {
    return { message: { type: 'failed', taskId, error: errorPayload(toEngineError(e)) }, transfer: [] };
  }
}
