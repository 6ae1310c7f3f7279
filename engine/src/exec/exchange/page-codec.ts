// Pages on the wire between tasks: an Arrow IPC stream (schema message, one record batch message per
// page, end-of-stream marker). A page is serialized once, when its producer enqueues it, into the bytes
// of its record batch message; a response is then only a concatenation of the shared schema message,
// the batch messages and the end marker, however often a consumer re-reads it. The page <-> record
// batch conversion is arrow.ts's; every field's SqlType travels in the schema metadata.
//
// The schema message is encoded once per producer; a page's record batch message is framed here from
// Arrow's own assembler and message encoder (Arrow's stream writer would encode the schema again for
// every page and copy the body twice), into one buffer with a single copy of the column buffers.

import { RecordBatchStreamReader, RecordBatchStreamWriter, Schema, type RecordBatch } from 'apache-arrow';
import { Message, RecordBatch as RecordBatchHeader } from 'apache-arrow/ipc/metadata/message';
import { VectorAssembler } from 'apache-arrow/visitor/vectorassembler';
import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import { fieldSqlType, pageToRecordBatch, recordBatchToPage, sqlTypeField } from '../../columnar/arrow.js';
import type { Page } from '../../columnar/page.js';

/** The media type of an Arrow IPC stream (IANA registration). */
export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';

/** One page as its record batch message; `schema` is the stream's schema message, shared by every page of a producer. */
export interface SerializedPage {
  readonly schema: Uint8Array;
  readonly batch: Uint8Array;
  readonly rowCount: number;
}

/** The 8 bytes that end an IPC stream: continuation marker and a zero metadata length. */
const END_OF_STREAM = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
const CONTINUATION = 0xffffffff;

/**
 * Serializes the pages of one producer (one column layout) into record batch messages. Every task
 * has one, but only a task read over HTTP serializes: its schema message is encoded at its first
 * page (a millisecond of Arrow's writer), and shared by producers of the same layout.
 */
export class PageSerializer {
  private readonly names: string[];
  private schemaMessage: Uint8Array | undefined;

  constructor(readonly types: readonly SqlType[]) {
    this.names = types.map((_, i) => `c${i}`);
  }

  serialize(page: Page): SerializedPage {
    this.schemaMessage ??= schemaMessageOf(this.types, this.names);
    return { schema: this.schemaMessage, batch: recordBatchMessage(pageToRecordBatch(page, this.names)), rowCount: page.rowCount };
  }
}

/** Schema messages by column layout (the JSON of its SqlTypes); emptied when it holds this many. */
const MAX_CACHED_SCHEMAS = 256;
const schemaMessages = new Map<string, Uint8Array>();

function schemaMessageOf(types: readonly SqlType[], names: readonly string[]): Uint8Array {
  const key = JSON.stringify(types);
  let message = schemaMessages.get(key);
  if (message === undefined) {
    const writer = new RecordBatchStreamWriter();
    writer.reset(undefined, new Schema(types.map((t, i) => sqlTypeField(names[i], t))));
    writer.finish();
    const bytes = writer.toUint8Array(true);
    message = bytes.slice(0, messageLength(bytes, 0));
    if (schemaMessages.size >= MAX_CACHED_SCHEMAS) schemaMessages.clear();
    schemaMessages.set(key, message);
  }
  return message;
}

/** The encapsulated IPC message of one record batch: continuation, metadata length, metadata padded to 8, body. */
function recordBatchMessage(batch: RecordBatch): Uint8Array {
  const assembled = VectorAssembler.assemble(batch);
  const header = new RecordBatchHeader(batch.numRows, assembled.nodes, assembled.bufferRegions, null);
  const metadata = Message.encode(Message.from(header, assembled.byteLength));
  const bodyStart = (8 + metadata.byteLength + 7) & ~7;
  const message = new Uint8Array(bodyStart + assembled.byteLength); // zero-filled: the padding
  const view = new DataView(message.buffer);
  view.setUint32(0, CONTINUATION, true);
  view.setInt32(4, bodyStart - 8, true);
  message.set(metadata, 8);
  assembled.buffers.forEach((buffer, i) => {
    message.set(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), bodyStart + assembled.bufferRegions[i].offset);
  });
  return message;
}

/** The byte length of the encapsulated IPC message at `offset` that has no body (a schema message). */
function messageLength(bytes: Uint8Array, offset: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset);
  if (view.getUint32(0, true) !== CONTINUATION)
    throw new EngineError('GENERIC_INTERNAL_ERROR', 'Arrow IPC writer produced an unexpected message framing');
  return 8 + view.getInt32(4, true);
}

/** The chunks of one IPC stream holding `pages` (all of one producer); concatenate them to send. */
export function streamChunks(pages: readonly SerializedPage[]): Uint8Array[] {
  if (pages.length === 0) throw new EngineError('GENERIC_INTERNAL_ERROR', 'An Arrow IPC stream needs at least one page for its schema');
  const chunks: Uint8Array[] = [pages[0].schema];
  for (const p of pages) chunks.push(p.batch);
  chunks.push(END_OF_STREAM);
  return chunks;
}

/** The bytes of a serialized page that count against a buffer's bound. */
export function serializedPageBytes(page: SerializedPage): number {
  return page.batch.byteLength;
}

/** The pages of an IPC stream, with the SqlTypes its schema names. A malformed stream is a PAGE_TRANSPORT_ERROR. */
export function deserializePages(bytes: Uint8Array): { types: SqlType[]; pages: Page[] } {
  const { types, pages } = readPageStream(bytes);
  return { types, pages: [...pages] };
}

/**
 * An IPC stream's SqlTypes and its pages, decoded one at a time as `pages` is iterated, so a consumer
 * can give the event loop a turn between pages. A malformed stream is a PAGE_TRANSPORT_ERROR, thrown
 * here for the schema and by the iteration for a damaged page.
 */
export function readPageStream(bytes: Uint8Array): { types: SqlType[]; pages: IterableIterator<Page> } {
  let reader: RecordBatchStreamReader;
  let types: SqlType[];
  try {
    reader = RecordBatchStreamReader.from(bytes);
    reader.open();
    if (reader.schema === undefined || reader.schema === null) throw new Error('no schema message');
    types = reader.schema.fields.map(fieldSqlType);
  } catch (e) {
    throw corrupt(e);
  }
  return { types, pages: decodePages(reader, types) };
}

function* decodePages(reader: RecordBatchStreamReader, types: readonly SqlType[]): IterableIterator<Page> {
  for (;;) {
    let page: Page;
    try {
      const next = reader.next();
      if (next.done === true) return;
      page = recordBatchToPage(next.value, types, true);
    } catch (e) {
      throw corrupt(e);
    }
    yield page;
  }
}

function corrupt(cause: unknown): EngineError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new EngineError('PAGE_TRANSPORT_ERROR', `Malformed Arrow IPC stream of pages: ${message}`);
}
