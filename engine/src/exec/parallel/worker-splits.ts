// Splits a worker thread can read on its own. A worker has no catalogs: the main thread hands it
// each split in a form it reads without the connector instance —
//   memory:    the split's batches, as views of shared memory (the snapshot the scan started on);
//   generated: the split itself, for connectors whose pages are a pure function of (schema, table,
//              split, columns): the worker makes its own instance of the connector by kind.
// Other connectors (system, information_schema) stay in the main thread.

import type { Session } from '../../spi/session.js';
import type { Connector, Split, TableMetadata } from '../../spi/connector.js';
import { InformationSchemaConnector } from '../../connectors/information-schema/information-schema-connector.js';
import { INFORMATION_SCHEMA } from '../../connectors/information-schema/information-schema-tables.js';
import { MemoryConnector } from '../../connectors/memory/memory-connector.js';
import { sharedPageToPage, type SharedPage } from '../../connectors/memory/shared-batch.js';
import { TpchConnector } from '../../connectors/tpch/tpch-connector.js';
import { adoptSharedTextPool, needsTextPool, sharedTextPool, textPoolReady } from '../../connectors/tpch/text-pool.js';
import type { Page } from '../../spi/page.js';
import { decodedColumns } from './decoded-columns.js';

interface GeneratedConnector {
  type: abstract new (...args: never[]) => Connector;
  create(catalog: string): Connector;
  /** Resolves once sharedState(columns) answers at once (it is built off the event loop). */
  stateReady(columns: readonly string[]): Promise<void>;
  /** State the main thread shares with workers for reading `columns` (made once, then shared). */
  sharedState(columns: readonly string[]): SharedArrayBuffer | undefined;
  adoptState(state: SharedArrayBuffer): void;
}

/** Connectors a worker instantiates for itself, by kind. */
const GENERATED = {
  tpch: {
    type: TpchConnector,
    create: (catalog) => new TpchConnector(catalog),
    // The comment columns (only they) draw from a 300 MB text pool: a worker adopts this thread's
    // copy instead of spending seconds building its own.
    stateReady: (columns) => (needsTextPool(columns) ? textPoolReady() : Promise.resolve()),
    sharedState: (columns) => (needsTextPool(columns) ? sharedTextPool() : undefined),
    adoptState: adoptSharedTextPool,
  },
} satisfies Record<string, GeneratedConnector>;

type GeneratedKind = keyof typeof GENERATED;

export type WorkerSplit =
  | { kind: 'memory'; pages: SharedPage[] }
  | { kind: 'generated'; connector: GeneratedKind; split: Split; state?: SharedArrayBuffer };

/** A split fixed for reading: by a worker (its worker form, once `ready`), or by this thread after all. */
export interface PreparedSplit {
  /** Resolves once `worker` can be made without holding the event loop. */
  ready(): Promise<void>;
  readonly worker: WorkerSplit;
  local(): AsyncIterable<Page>;
}

export interface WorkerSplitPreparer {
  /** Whether making the pages is work of its own (generated data), worth a worker even for a bare scan. */
  generatesPages: boolean;
  /** A split of the table, reading `columns`. */
  prepare(split: Split, columns: readonly string[], session: Session): PreparedSplit;
}

/** How workers read `table`'s splits, or undefined when its connector must stay in this thread. */
export function workerSplitPreparer(connector: Connector | undefined, table: TableMetadata): WorkerSplitPreparer | undefined {
  if (connector === undefined || table.schema === INFORMATION_SCHEMA) return undefined;
  const inner = connector instanceof InformationSchemaConnector ? connector.inner : connector;
  if (inner instanceof MemoryConnector) {
    const prepare = (split: Split, columns: readonly string[]): PreparedSplit => {
      const data = inner.workerSplitData(split, columns);
      return { ready: () => Promise.resolve(), worker: { kind: 'memory', pages: data.shared }, local: data.pages };
    };
    return { generatesPages: false, prepare };
  }
  for (const kind of Object.keys(GENERATED) as GeneratedKind[]) {
    const generated: GeneratedConnector = GENERATED[kind];
    if (!(inner instanceof generated.type)) continue;
    const prepare = (split: Split, columns: readonly string[], session: Session): PreparedSplit => ({
      ready: () => generated.stateReady(columns),
      get worker(): WorkerSplit {
        return { kind: 'generated', connector: kind, split, state: generated.sharedState(columns) };
      },
      local: () => inner.createPageSource(session, split, columns),
    });
    return { generatesPages: true, prepare };
  }
  return undefined;
}

/** Worker-side connector instances, by kind and catalog. */
const generatedConnectors = new Map<string, Connector>();

/** In a worker: the pages of a split, holding `columns`. */
export function openWorkerSplit(split: WorkerSplit, columns: readonly string[], session: Session): AsyncIterable<Page> {
  if (split.kind === 'memory') return sharedPages(split.pages);
  const key = `${split.connector}:${split.split.catalog}`;
  let connector = generatedConnectors.get(key);
  const generated: GeneratedConnector = GENERATED[split.connector];
  if (split.state !== undefined) generated.adoptState(split.state);
  if (connector === undefined) {
    connector = generated.create(split.split.catalog);
    generatedConnectors.set(key, connector);
  }
  return connector.createPageSource(session, split.split, columns);
}

async function* sharedPages(pages: readonly SharedPage[]): AsyncIterable<Page> {
  for (const page of pages) yield sharedPageToPage(page, (column, decode) => decodedColumns.decode(column.key as string, decode));
}
