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
  clientInfo?: string;
  /** Epoch milliseconds when the query started; current_timestamp and friends read it. */
  startTime: number;
}

/** What a statement asks the client to change in its session (sent back as response headers). */
export interface SessionChanges {
  setCatalog?: string;
  setSchema?: string;
  setSessionProperties: Map<string, string>;
  resetSessionProperties: string[];
  addedPreparedStatements: Map<string, string>;
  deallocatedPreparedStatements: string[];
}

export function noSessionChanges(): SessionChanges {
  return {
    setSessionProperties: new Map(),
    resetSessionProperties: [],
    addedPreparedStatements: new Map(),
    deallocatedPreparedStatements: [],
  };
}
