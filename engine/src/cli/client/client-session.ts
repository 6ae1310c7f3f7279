// The client's session: who and where it queries, its session properties and prepared statements.
// It becomes request headers and follows the server's Set-*/Clear-*/Added-*/Deallocated-* headers,
// as the Trino CLI does.

export const CLIENT_HEADER_PREFIX = 'X-Engine-';

export interface ClientSession {
  server: string;
  /** '' sends no user header: the server's authenticated principal is the user. */
  user: string;
  source: string;
  catalog?: string;
  schema?: string;
  timeZone: string;
  properties: Map<string, string>;
  preparedStatements: Map<string, string>;
  /** `Basic ...` (--user with --password) or `Bearer ...` (--access-token). */
  authorization?: string;
  /** The transaction START TRANSACTION opened, until COMMIT or ROLLBACK ends it. */
  transactionId?: string;
}

export function requestHeaders(session: ClientSession, userAgent: string): Record<string, string> {
  const p = CLIENT_HEADER_PREFIX;
  const headers: Record<string, string> = {
    'User-Agent': userAgent,
    [`${p}Source`]: session.source,
    [`${p}Time-Zone`]: session.timeZone,
  };
  if (session.user !== '') headers[`${p}User`] = session.user;
  if (session.authorization) headers.Authorization = session.authorization;
  if (session.catalog) headers[`${p}Catalog`] = session.catalog;
  if (session.schema) headers[`${p}Schema`] = session.schema;
  if (session.properties.size > 0) headers[`${p}Session`] = encodePairs(session.properties);
  if (session.preparedStatements.size > 0) headers[`${p}Prepared-Statement`] = encodePairs(session.preparedStatements);
  // As Trino's CLI: the client can run transactions; NONE while it has none open.
  headers[`${p}Transaction-Id`] = session.transactionId ?? 'NONE';
  return headers;
}

function encodePairs(pairs: Map<string, string>): string {
  return [...pairs].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join(',');
}

/** The session after a successful statement whose responses carried `headers`. */
export function applySessionHeaders(session: ClientSession, headers: Headers): ClientSession {
  const p = CLIENT_HEADER_PREFIX;
  const list = (name: string): string[] =>
    (headers.get(`${p}${name}`) ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  const next: ClientSession = {
    ...session,
    properties: new Map(session.properties),
    preparedStatements: new Map(session.preparedStatements),
  };
  const catalog = headers.get(`${p}Set-Catalog`);
  if (catalog !== null) next.catalog = catalog;
  const schema = headers.get(`${p}Set-Schema`);
  if (schema !== null) next.schema = schema;
  for (const [name, value] of list('Set-Session').map(splitPair)) next.properties.set(name, value);
  for (const name of list('Clear-Session')) next.properties.delete(decode(name));
  for (const [name, sql] of list('Added-Prepare').map(splitPair)) next.preparedStatements.set(name, sql);
  for (const name of list('Deallocated-Prepare')) next.preparedStatements.delete(decode(name));
  const started = headers.get(`${p}Started-Transaction-Id`);
  if (started !== null) next.transactionId = started;
  return applyTransactionEnd(next, headers);
}

/** The session without its transaction when the server ended it (a COMMIT or ROLLBACK, also one that failed). */
export function applyTransactionEnd(session: ClientSession, headers: Headers): ClientSession {
  if (headers.get(`${CLIENT_HEADER_PREFIX}Clear-Transaction-Id`) === null) return session;
  const next = { ...session };
  delete next.transactionId;
  return next;
}

function splitPair(text: string): [string, string] {
  const eq = text.indexOf('=');
  return eq < 0 ? [decode(text), ''] : [decode(text.slice(0, eq)), decode(text.slice(eq + 1))];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
