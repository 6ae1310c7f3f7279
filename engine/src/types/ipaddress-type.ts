// Trino's ipaddress type: an IPv6 address, IPv4 ones held in the IPv4-mapped range (::ffff:a.b.c.d).
// A value is held as the 32 hex digits of its 16 bytes, so that text order is Trino's byte order;
// it is shown as IPv4 when mapped, else in RFC 5952's canonical IPv6 form (as Guava formats it).

import { EngineError } from '../errors/engine-error.js';

const IPV4_MAPPED_PREFIX = '00000000000000000000ffff';

/** The 4 or 16 bytes of an IP address literal as Guava's InetAddresses.forString reads it, or undefined. */
export function parseIpLiteral(text: string): Uint8Array | undefined {
  if (!text.includes(':')) return parseIpv4(text);
  return parseIpv6(text);
}

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i];
    // Decimal octets of 1 to 3 digits, no leading zero (Guava refuses them as ambiguous).
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part[0] === '0')) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseIpv6(text: string): Uint8Array | undefined {
  let body = text;
  let tail: number[] = [];
  // A trailing dotted quad stands for the last two hextets.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (v4 === undefined) return undefined;
    tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    body = text.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const head = hextetsOf(halves[0]);
  const after = halves.length === 2 ? hextetsOf(halves[1]) : [];
  if (head === undefined || after === undefined) return undefined;
  const given = head.length + after.length + tail.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined;
  const hextets = [...head, ...new Array<number>(8 - given).fill(0), ...after, ...tail];
  const bytes = new Uint8Array(16);
  hextets.forEach((h, i) => {
    bytes[2 * i] = h >> 8;
    bytes[2 * i + 1] = h & 0xff;
  });
  return bytes;
}

/** `a:b:c` as hextets of 1 to 4 hex digits each; '' is none. */
function hextetsOf(text: string): number[] | undefined {
  if (text === '') return [];
  const values: number[] = [];
  for (const part of text.split(':')) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
    values.push(parseInt(part, 16));
  }
  return values;
}

function mappedBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 16) return bytes;
  const mapped = new Uint8Array(16);
  mapped[10] = 0xff;
  mapped[11] = 0xff;
  mapped.set(bytes, 12);
  return mapped;
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** CAST(varchar AS ipaddress). */
export function ipAddressFromText(text: string): string {
  const bytes = parseIpLiteral(text);
  if (bytes === undefined) throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast value to IPADDRESS: ${text}`);
  return toHex(mappedBytes(bytes));
}

/** CAST(varbinary AS ipaddress): 4 bytes are IPv4, 16 IPv6. */
export function ipAddressFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 4 && bytes.length !== 16)
    throw new EngineError('INVALID_CAST_ARGUMENT', `Invalid IP address binary length: ${bytes.length}`);
  return toHex(mappedBytes(bytes));
}

/** CAST(ipaddress AS varbinary): the 16 bytes. */
export function ipAddressToBytes(stored: string): Uint8Array {
  return Uint8Array.from(Buffer.from(stored, 'hex'));
}

/** CAST(ipaddress AS varchar): dotted IPv4 when mapped, else canonical IPv6. */
export function formatIpAddress(stored: string): string {
  if (stored.startsWith(IPV4_MAPPED_PREFIX)) {
    return [0, 1, 2, 3].map((i) => parseInt(stored.slice(24 + 2 * i, 26 + 2 * i), 16)).join('.');
  }
  const hextets = Array.from({ length: 8 }, (_, i) => parseInt(stored.slice(4 * i, 4 * i + 4), 16));
  // The longest run of two or more zero hextets (the first of equal ones) becomes '::'.
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (hextets[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const text = hextets.map((h) => h.toString(16));
  if (best.start < 0) return text.join(':');
  return `${text.slice(0, best.start).join(':')}::${text.slice(best.start + best.length).join(':')}`;
}

const invalid = (message: string) => new EngineError('INVALID_FUNCTION_ARGUMENT', message);

/** contains(network, address): whether the address is in the CIDR network, with Trino's checks of the CIDR. */
export function networkContains(cidr: string, stored: string): boolean {
  const separator = cidr.indexOf('/');
  if (separator < 0) throw invalid('Invalid CIDR');
  const base = cidr.slice(0, separator);
  const parsed = parseIpLiteral(base);
  if (parsed === undefined) throw invalid('Invalid network IP address');
  const prefixText = cidr.slice(separator + 1);
  if (!/^[+-]?\d+$/.test(prefixText)) throw invalid('Invalid prefix length');
  let prefix = Number(prefixText);
  if (prefix < 0) throw invalid('Invalid prefix length');
  const network = mappedBytes(parsed);
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(base)) {
    // An IPv4 network: its host bits must be zero.
    const value = ((network[12] << 24) | (network[13] << 16) | (network[14] << 8) | network[15]) >>> 0;
    if (prefix > 32 || (prefix < 32 && value % 2 ** (32 - prefix) !== 0)) throw invalid('Invalid CIDR');
    prefix += 96;
  } else if (prefix > 128) throw invalid('Invalid CIDR');
  const address = ipAddressToBytes(stored);
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((network[bit >> 3] & mask) !== (address[bit >> 3] & mask)) return false;
  }
  return true;
}
