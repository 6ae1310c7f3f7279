// URL functions (Trino's functions/url page). Trino parses with java.net.URI (RFC 2396): a URL with
// a character RFC 2396 forbids (a space, `^`, `|`, a bad `%` escape, ...) gives NULL; a part the URL
// lacks gives '' (the port NULL); path, query and fragment come back with their %XX escapes decoded.

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, VARCHAR } from '../../types/types.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

interface ParsedUrl {
  scheme: string | null;
  host: string | null;
  port: number | null;
  path: string | null;
  rawQuery: string | null;
  fragment: string | null;
}

/** A character RFC 2396 allows in some part of a URI: unreserved, reserved, `%`, or non-ASCII "other". */
const URI_CHARS = /^(?:[A-Za-z0-9\-_.!~*'();/?:@&=+$,[\]#]|%[0-9A-Fa-f]{2}|[^\x00-\x7f\s])*$/u;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const HOST_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;

function parseAuthority(authority: string): { host: string | null; port: number | null } {
  const at = authority.lastIndexOf('@');
  const hostPort = at < 0 ? authority : authority.slice(at + 1);
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (match === null) return { host: null, port: null };
  const [, host, port] = match;
  const serverBased = host === '' || HOST_NAME.test(host) || IPV4.test(host) || IPV6.test(host);
  // Java falls back to a registry-based authority, which has no host and no port.
  if (!serverBased) return { host: null, port: null };
  return { host: host === '' ? null : host, port: port === undefined || port === '' ? null : Number(port) };
}

/** java.net.URI's reading of a URL, or null where it throws URISyntaxException. */
export function parseUrl(url: string): ParsedUrl | null {
  if (!URI_CHARS.test(url)) return null;
  const hash = url.indexOf('#');
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? null : url.slice(hash + 1);
  if (fragment !== null && fragment.includes('#')) return null;
  const schemeMatch = SCHEME.exec(beforeFragment);
  const scheme = schemeMatch === null ? null : schemeMatch[1];
  const rest = schemeMatch === null ? beforeFragment : beforeFragment.slice(schemeMatch[0].length);
  if (scheme !== null && !rest.startsWith('/')) {
    // An opaque URI (mailto:a@b.c): no authority, path or query.
    return rest === '' ? null : { scheme, host: null, port: null, path: null, rawQuery: null, fragment };
  }
  const question = rest.indexOf('?');
  const hierarchical = question < 0 ? rest : rest.slice(0, question);
  const rawQuery = question < 0 ? null : rest.slice(question + 1);
  let path = hierarchical;
  let host: string | null = null;
  let port: number | null = null;
  if (hierarchical.startsWith('//')) {
    const slash = hierarchical.indexOf('/', 2);
    const authority = slash < 0 ? hierarchical.slice(2) : hierarchical.slice(2, slash);
    path = slash < 0 ? '' : hierarchical.slice(slash);
    ({ host, port } = parseAuthority(authority));
  }
  if (/[[\]]/.test(path) || (rawQuery !== null && /[[\]]/.test(rawQuery))) return null;
  return { scheme, host, port, path, rawQuery, fragment };
}

/** %XX escapes decoded as UTF-8, as URI's getPath/getQuery/getFragment do. */
function decodeEscapes(text: string | null): string {
  if (text === null) return '';
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** java.net.URLDecoder: `+` is a space, runs of %XX escapes are UTF-8 bytes, a broken escape fails. */
export function urlDecode(value: string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const char = value[i];
    if (char !== '%') {
      out += char === '+' ? ' ' : char;
      i++;
      continue;
    }
    const bytes: number[] = [];
    while (i + 2 < value.length && value[i] === '%') {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw invalidArgument(`URLDecoder: Illegal hex characters in escape (%) pattern - ${hex}`);
      bytes.push(parseInt(hex, 16));
      i += 3;
    }
    if (i < value.length && value[i] === '%') throw invalidArgument('URLDecoder: Incomplete trailing escape (%) pattern');
    out += Buffer.from(bytes).toString('utf8');
  }
  return out;
}

/** Guava's form-parameter escaper: letters, digits and `-_.*` kept, space as `+`, the rest %XX of UTF-8. */
export function urlEncode(value: string): string {
  let out = '';
  for (const char of value) {
    if (/[A-Za-z0-9\-_.*]/.test(char)) out += char;
    else if (char === ' ') out += '+';
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function extractParameter(url: string, name: string): string | null {
  const parsed = parseUrl(url);
  if (parsed === null || parsed.rawQuery === null) return null;
  for (const argument of parsed.rawQuery.split('&')) {
    const equals = argument.indexOf('=');
    const key = equals < 0 ? argument : argument.slice(0, equals);
    if (key === name) return equals < 0 ? '' : urlDecode(argument.slice(equals + 1));
  }
  return null;
}

const VARCHAR_X = { family: 'varchar' } as const;

function extractor(name: string, description: string, part: (url: ParsedUrl) => string): ScalarFunctionDefinition {
  const signature: SignatureTemplate = {
    params: [VARCHAR_X],
    returnType: VARCHAR,
    implement: () =>
      body(
        (url: string) => {
          const parsed = parseUrl(url);
          return parsed === null ? null : part(parsed);
        },
        { mayReturnNull: true },
      ),
  };
  return { names: [name], description, signatures: [signature] };
}

export const URL_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  extractor('url_extract_protocol', 'Extract protocol from url', (url) => url.scheme ?? ''),
  extractor('url_extract_host', 'Extract host from url', (url) => url.host ?? ''),
  {
    names: ['url_extract_port'],
    description: 'Extract port from url',
    signatures: [
      {
        params: [VARCHAR_X],
        returnType: BIGINT,
        implement: () =>
          body(
            (url: string) => {
              const port = parseUrl(url)?.port;
              return port === null || port === undefined ? null : BigInt(port);
            },
            { mayReturnNull: true },
          ),
      },
    ],
  },
  extractor('url_extract_path', 'Extract part from url', (url) => decodeEscapes(url.path)),
  extractor('url_extract_query', 'Extract query from url', (url) => decodeEscapes(url.rawQuery)),
  extractor('url_extract_fragment', 'Extract fragment from url', (url) => decodeEscapes(url.fragment)),
  {
    names: ['url_extract_parameter'],
    description: 'Extract query parameter from url',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body(extractParameter, { mayReturnNull: true }) }],
  },
  {
    names: ['url_encode'],
    description: 'Escape a string for use in URL query parameter names and values',
    signatures: [{ params: [VARCHAR_X], returnType: VARCHAR, implement: () => body(urlEncode) }],
  },
  {
    names: ['url_decode'],
    description: 'Unescape a URL-encoded string',
    signatures: [{ params: [VARCHAR_X], returnType: VARCHAR, implement: () => body(urlDecode) }],
  },
];
