// Reads a merging remote source (exec/exchange/remote-merge.ts): one ExchangeClient per source task,
// as Trino's MergeOperator keeps one per location, so that each task's pages stay apart and in the
// order the task made them, for the merge to take them task by task. Each client fetches on its
// own, within its own bound (maxBufferedBytes): a task whose rows the merge does not need yet stops
// being fetched once its client is full, while the others go on.

import { EngineError } from '../errors/engine-error.js';
import type { Page } from '../columnar/page.js';
import type { SortedStreams } from '../exec/exchange/remote-merge.js';
import type { OperatorRecorder } from '../exec/stats/operator-recorder.js';
import type { ThreadRuns } from '../exec/threads/parallel-source.js';
import { ExchangeClient, type ExchangeClientOptions, type ExchangeClientStatus, type ExchangeLocation } from './exchange-client.js';

export class MergingExchangeClient implements SortedStreams {
  private readonly clients: ExchangeClient[] = [];
  private readonly uris = new Set<string>();
  private noMoreLocations = false;
  private ended = false;
  private readonly allKnown: Promise<void>;
  private knownResolve!: () => void;
  private knownReject!: (error: EngineError) => void;

  /** `stats`: the merge operator's, which every client counts its waits and memory in. */
  constructor(
    private readonly options: ExchangeClientOptions,
    private readonly stats?: OperatorRecorder,
  ) {
    this.allKnown = new Promise<void>((resolve, reject) => {
      this.knownResolve = resolve;
      this.knownReject = reject;
    });
    // Its failure is the merge's once it asks for the streams; it must not go unhandled meanwhile.
    this.allKnown.catch(() => undefined);
  }

  addLocation(location: ExchangeLocation): void {
    // A location already known comes again when an update is repeated (see ExchangeClient.addLocation).
    if (this.uris.has(location.uri) || this.ended) return;
    if (this.noMoreLocations) throw new EngineError('GENERIC_INTERNAL_ERROR', `Location ${location.uri} added after no-more-locations`);
    this.uris.add(location.uri);
    const client = new ExchangeClient(this.options, this.stats);
    client.addLocation(location);
    client.setNoMoreLocations();
    this.clients.push(client);
  }

  setNoMoreLocations(): void {
    this.noMoreLocations = true;
    this.knownResolve();
  }

  async streams(): Promise<ThreadRuns> {
    await this.allKnown;
    const clients = this.clients;
    return {
      count: clients.length,
      next: async (run: number): Promise<Page | undefined> => {
        const next = await clients[run].next();
        return next.done === true ? undefined : next.value;
      },
    };
  }

  /** The clients' figures together, as one exchange's (INTERFACE.md, operator info); its average weighed by each client's requests. */
  status(): ExchangeClientStatus {
    const each = this.clients.map((c) => c.status());
    const sum = (figure: (s: ExchangeClientStatus) => number) => each.reduce((n, s) => n + figure(s), 0);
    const requests = (s: ExchangeClientStatus) => s.pageBufferClientStatuses.reduce((n, b) => n + b.requestsCompleted, 0);
    const allRequests = sum(requests);
    return {
      bufferedBytes: sum((s) => s.bufferedBytes),
      averageBytesPerRequest: allRequests === 0 ? 0 : Math.round(sum((s) => s.averageBytesPerRequest * requests(s)) / allRequests),
      bufferedPages: sum((s) => s.bufferedPages),
      pageBufferClientStatuses: each.flatMap((s) => s.pageBufferClientStatuses),
    };
  }

  /** The consumer's query or task ended: the merge, waiting for locations or pages, gets `error`. */
  abort(error: EngineError): void {
    this.ended = true;
    this.knownReject(error);
    for (const client of this.clients) client.abort(error);
  }

  close(): void {
    this.ended = true;
    this.knownReject(new EngineError('GENERIC_INTERNAL_ERROR', 'The merging exchange was closed'));
    for (const client of this.clients) client.close();
  }
}
