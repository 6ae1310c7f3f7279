// The client protocol's headers. Requests may spell them X-Engine-*, X-Trino-* or X-Presto-*; the
// response uses the spelling of the request (X-Engine-* when it used none). Values in Session and
// Prepared-Statement are URL-encoded, as Trino's clients encode them.

import type { IncomingHttpHeaders } from 'node:http';
import type { SessionChanges } from '../spi/session.js';
import type { SessionRequest } from '../coordinator/query-manager.js';
import { HttpError } from '../errors/http-error.js';
import { normalizeTimeZone } from '../types/time-zone-id.js';

export const HEADER_PREFIXES = ['X-Engine-', 'X-Trino-', 'X-Presto-'] as const;
export type HeaderPrefix = (typeof HEADER_PREFIXES)[number];

export const DEFAULT_USER = 'anonymous';

/** The prefix the request's protocol headers use, if it sent any. */
export function detectPrefix(headers: IncomingHttpHeaders): HeaderPrefix | undefined {
  const names = Object.keys(headers);
  return HEADER_PREFIXES.find((prefix) => names.some((name) => name.startsWith(prefix.toLowerCase())));
}

/** The session a POST /v1/statement asks for. */
export function readSessionHeaders(headers: IncomingHttpHeaders, prefix: HeaderPrefix, defaultTimeZone: string): SessionRequest {
  const get = (name: string): string | undefined => headerValue(headers, prefix, name);
  // A client that sends the header can run transactions; NONE (or nothing) means it has none open.
  const transaction = get('Transaction-Id');
  return {
    ...(transaction === undefined ? {} : { transaction: transactionId(transaction, `${prefix}Transaction-Id`) }),
    user: get('User') ?? DEFAULT_USER,
    source: get('Source'),
    catalog: get('Catalog'),
    schema: get('Schema'),
    timeZone: timeZone(get('Time-Zone'), `${prefix}Time-Zone`) ?? defaultTimeZone,
    properties: parsePairs(get('Session'), `${prefix}Session`),
    preparedStatements: parsePairs(get('Prepared-Statement'), `${prefix}Prepared-Statement`),
    clientTags: (get('Client-Tags') ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
    clientCapabilities: (get('Client-Capabilities') ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
    clientInfo: get('Client-Info'),
  };
}

/**
 * The user a request speaks for: its User header in the spelling it uses, else the default user (as
 * for a POST without one). Clients identify themselves this way until real authentication exists.
 */
export function requestUser(headers: IncomingHttpHeaders): string {
  const prefix = detectPrefix(headers);
  return (prefix && headerValue(headers, prefix, 'User')) ?? DEFAULT_USER;
}

function headerValue(headers: IncomingHttpHeaders, prefix: HeaderPrefix, name: string): string | undefined {
  const value = headers[`${prefix}${name}`.toLowerCase()];
  const text = Array.isArray(value) ? value.join(',') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/** The requested zone in the engine's form; an unknown zone is a bad request, as in Trino (never silently UTC). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The open transaction a client names: none, or its id, which is a UUID as Trino's are (anything else is a 400). */
function transactionId(text: string, header: string): { id?: string } {
  const value = text.trim();
  if (value === '' || value.toUpperCase() === 'NONE') return {};
  if (!UUID_TEXT.test(value)) throw new HttpError(400, `Invalid UUID string: ${value} (${header} header)`);
  return { id: value.toLowerCase() };
}

function timeZone(text: string | undefined, header: string): string | undefined {
  if (text === undefined) return undefined;
  const zone = normalizeTimeZone(text);
  if (zone === undefined) throw new HttpError(400, `Time zone not supported: ${text} (${header} header)`, 'NOT_SUPPORTED');
  return zone;
}

/** `a=1,b=x%2Cy` -> {a: '1', b: 'x,y'}; names and values URL-decoded ('+' is a space, as Java encodes it). */
function parsePairs(text: string | undefined, header: string): Map<string, string> {
  const pairs = new Map<string, string>();
  if (text === undefined) return pairs;
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new HttpError(400, `Invalid ${header} header: '${part.trim()}' is not name=value`, 'BAD_REQUEST');
    pairs.set(urlDecode(part.slice(0, eq).trim(), header), urlDecode(part.slice(eq + 1).trim(), header));
  }
  return pairs;
}

function urlDecode(text: string, header: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new HttpError(400, `Invalid ${header} header: '${text}' is not URL-encoded`, 'BAD_REQUEST');
  }
}

/** Response headers that tell the client how to change its session, by header name. */
export function sessionChangeHeaders(changes: SessionChanges, prefix: HeaderPrefix): Array<[string, string[]]> {
  const headers: Array<[string, string[]]> = [];
  const add = (name: string, values: string[]) => {
    if (values.length > 0) headers.push([`${prefix}${name}`, values]);
  };
  if (changes.setCatalog !== undefined) add('Set-Catalog', [changes.setCatalog]);
  if (changes.setSchema !== undefined) add('Set-Schema', [changes.setSchema]);
  add(
    'Set-Session',
    [...changes.setSessionProperties].map(([name, value]) => `${name}=${encodeURIComponent(value)}`),
  );
  add('Clear-Session', changes.resetSessionProperties);
  add(
    'Added-Prepare',
    [...changes.addedPreparedStatements].map(([name, sql]) => `${encodeURIComponent(name)}=${encodeURIComponent(sql)}`),
  );
  add(
    'Deallocated-Prepare',
    changes.deallocatedPreparedStatements.map((name) => encodeURIComponent(name)),
  );
  if (changes.startedTransactionId !== undefined) add('Started-Transaction-Id', [changes.startedTransactionId]);
  if (changes.clearTransactionId) add('Clear-Transaction-Id', ['true']);
  return headers;
}
