// Text encodings of bytes as Trino reads and writes them: hex (upper case out, either case in),
// base64 and base64url (padding optional on input, as Java's decoder), base32 (RFC 4648, Guava's
// rules: padding optional, impossible lengths refused). Bad text fails INVALID_FUNCTION_ARGUMENT.

import { EngineError } from '../../../errors/engine-error.js';

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

export function fromHex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw invalid(`invalid input length ${text.length}`);
  const bad = /[^0-9a-fA-F]/.exec(text);
  if (bad !== null) throw invalid(`invalid hex character: ${bad[0]}`);
  return new Uint8Array(Buffer.from(text, 'hex'));
}

const BASE64 = /^[A-Za-z0-9+/]*$/;
const BASE64_URL = /^[A-Za-z0-9_-]*$/;

/** Java's Base64 decoders: `=` padding optional but exact when present; a lone last character refused. */
function decodeBase64(text: string, alphabet: RegExp, encoding: 'base64' | 'base64url'): Uint8Array {
  const padding = /=*$/.exec(text)![0].length;
  const body = text.slice(0, text.length - padding);
  const illegal = [...body].find((c) => !alphabet.test(c));
  if (illegal !== undefined) throw invalid(`Illegal base64 character ${(illegal.codePointAt(0) as number).toString(16)}`);
  if (padding > 2 || (padding > 0 && text.length % 4 !== 0)) throw invalid('Input byte array has wrong 4-byte ending unit');
  if (body.length % 4 === 1) throw invalid('Last unit does not have enough valid bits');
  return new Uint8Array(Buffer.from(body, encoding));
}

export const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
export const fromBase64 = (text: string): Uint8Array => decodeBase64(text, BASE64, 'base64');

/** base64url keeps the padding on output, as Java's URL encoder does. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_');
}
export const fromBase64Url = (text: string): Uint8Array => decodeBase64(text, BASE64_URL, 'base64url');

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Lengths (mod 8) an unpadded base32 text can have: 0, 2, 4, 5 or 7 characters in its last unit. */
const BASE32_VALID_TAIL = new Set([0, 2, 4, 5, 7]);

export function toBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

export function fromBase32(text: string): Uint8Array {
  const body = text.replace(/=+$/, '');
  if (!BASE32_VALID_TAIL.has(body.length % 8)) throw invalid(`Invalid input length ${body.length}`);
  const out = new Uint8Array(Math.floor((body.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (const char of body) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) throw invalid(`Unrecognized character: ${char}`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[written++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}
