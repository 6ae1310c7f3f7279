// A page in a task's output buffer. It stays a page until a reader over HTTP asks for it, and is then
// serialized once (for every such reader): a consumer in the same process (a task of this node, or
// the query's root stage on the coordinator) takes the page itself, with no encoding on either side.

import type { PageSerializer, SerializedPage } from '../exec/exchange/page-codec.js';
import { estimatedPageBytes, type Page } from '../columnar/page.js';

export class OutputPage {
  /** What the page counts against its buffer's bound (its strings measured on a sample). */
  readonly bytes: number;
  private encoded: SerializedPage | undefined;

  constructor(
    readonly page: Page,
    private readonly serializer: PageSerializer,
  ) {
    this.bytes = estimatedPageBytes(page);
  }

  get rowCount(): number {
    return this.page.rowCount;
  }

  /** The page as one Arrow record batch message, for a reader in another process. */
  serialized(): SerializedPage {
    return (this.encoded ??= this.serializer.serialize(this.page));
  }
}
