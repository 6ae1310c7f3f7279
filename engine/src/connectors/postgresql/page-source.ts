// Reads a split (counting the bytes received): its SELECT runs as `COPY (...) TO STDOUT (FORMAT binary)` on a connection of its
// own, and the bytes are decoded into pages as they arrive (the stream pauses while the engine is
// behind, so memory stays bounded). When the engine stops early (a LIMIT met, the query cancelled
// or failed), the server is told to cancel the query and the connection is closed.

import { to as copyTo } from 'pg-copy-streams';
import { EngineError } from '../../errors/engine-error.js';
import { BYTES_READ_METRIC, type PageSource } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { CopyDecoder } from './copy-decoder.js';
import type { PostgresClient } from './postgresql-client.js';

/** The split's pages; its metrics say how many bytes of COPY data the server sent. */
export function readQuery(
  client: PostgresClient,
  sql: string,
  columns: readonly { name: string; type: SqlType }[],
  signal?: AbortSignal,
): PageSource {
  const received = { bytes: 0 };
  const pages = readPages(client, sql, columns, received, signal);
  return { [Symbol.asyncIterator]: () => pages[Symbol.asyncIterator](), metrics: () => ({ [BYTES_READ_METRIC]: received.bytes }) };
}

async function* readPages(
  client: PostgresClient,
  sql: string,
  columns: readonly { name: string; type: SqlType }[],
  received: { bytes: number },
  signal?: AbortSignal,
): AsyncIterable<Page> {
  const canceled = () => new EngineError('USER_CANCELED', 'Query was canceled');
  if (signal?.aborted) throw canceled();
  const connection = await client.connect();
  const stream = connection.query(copyTo(`COPY (${sql}) TO STDOUT (FORMAT binary)`));
  let done = false;
  const onAbort = () => {
    void client.cancel(connection);
    stream.destroy(canceled());
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const decoder = new CopyDecoder(columns);
    for await (const chunk of stream) {
      received.bytes += (chunk as Buffer).length;
      for (const page of decoder.push(chunk as Buffer)) yield page;
    }
    const last = decoder.finish();
    done = true;
    if (last !== undefined) yield last;
  } catch (e) {
    if (signal?.aborted) throw canceled();
    throw client.error(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (done) {
      connection.release();
    } else {
      // The server may still be running the query: cancel it there, and never reuse this connection.
      await client.cancel(connection);
      connection.release(true);
    }
  }
}
