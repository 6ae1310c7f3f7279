// The session a statement runs in: who, where (catalog.schema), and the client's settings.

export interface Session {
  queryId: string;
  user: string;
  source?: string;
  catalog?: string;
  schema?: string;
  timeZone: string;
  /** Session properties (SET SESSION / the Session header), by name; values as strings. */
  properties: Map<string, string>;
  /** Prepared statements (PREPARE / the Prepared-Statement header): name -> SQL text. */
  preparedStatements: Map<string, string>;
  clientTags: string[];
  /** The user's groups from the group provider (security.groupFile) when the query started; none without one. */
  groups?: readonly string[];
  /** What the client says it understands (its Client-Capabilities header): the engine reads NUMBER, VARIANT and VARIANT_BINARY. */
  clientCapabilities?: readonly string[];
  clientInfo?: string;
  /** Epoch milliseconds when the query started; current_timestamp and friends read it. */
  startTime: number;
  /**
   * The client's transaction, from its Transaction-Id header: absent when it sent none (it cannot
   * start one), without an id when it sent NONE (no transaction open).
   */
  transaction?: { id?: string };
}

/** What a statement asks the client to change in its session (sent back as response headers). */
export interface SessionChanges {
  setCatalog?: string;
  setSchema?: string;
  setSessionProperties: Map<string, string>;
  resetSessionProperties: string[];
  addedPreparedStatements: Map<string, string>;
  deallocatedPreparedStatements: string[];
  /** START TRANSACTION: the id the client sends from now on. */
  startedTransactionId?: string;
  /** COMMIT / ROLLBACK: the client's transaction ended. */
  clearTransactionId?: boolean;
}

export function noSessionChanges(): SessionChanges {
  return {
    setSessionProperties: new Map(),
    resetSessionProperties: [],
    addedPreparedStatements: new Map(),
    deallocatedPreparedStatements: [],
  };
}
