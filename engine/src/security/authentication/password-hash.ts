// A hashed password of the password file, as Trino's file authenticator reads them: bcrypt
// ($2y$, $2a$ or $2b$, cost at least 8) or PBKDF2 with HMAC-SHA1 written iterations:salt:hash in hex
// (at least 1000 iterations). Checks run off the event loop: bcrypt on a worker thread of its own
// (bcrypt-checker.ts), PBKDF2 on libuv's thread pool.

import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { bcryptMatches } from './bcrypt-checker.js';

const BCRYPT_MIN_COST = 8;
const PBKDF2_MIN_ITERATIONS = 1000;
const BCRYPT_PATTERN = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const PBKDF2_PATTERN = /^(\d{1,9}):((?:[0-9a-f]{2})+):((?:[0-9a-f]{2})+)$/;

const pbkdf2Async = promisify(pbkdf2);

export type PasswordHash = { kind: 'bcrypt'; hash: string } | { kind: 'pbkdf2'; iterations: number; salt: Buffer; hash: Buffer };

/** The hash of one line, or why it cannot be used (the message never holds the hash). */
export function parsePasswordHash(text: string): PasswordHash | string {
  if (text.startsWith('$2')) {
    const match = BCRYPT_PATTERN.exec(text);
    if (match === null) return 'invalid bcrypt hash (expected $2y$<cost>$<53 characters>)';
    const cost = Number(match[1]);
    if (cost < BCRYPT_MIN_COST) return `bcrypt cost ${cost} is below the minimum of ${BCRYPT_MIN_COST}`;
    return { kind: 'bcrypt', hash: text };
  }
  if (text.includes(':')) {
    const match = PBKDF2_PATTERN.exec(text);
    if (match === null) return 'invalid PBKDF2 hash (expected iterations:salt:hash, salt and hash in lower-case hex)';
    const iterations = Number(match[1]);
    if (iterations < PBKDF2_MIN_ITERATIONS) return `PBKDF2 iterations ${iterations} are below the minimum of ${PBKDF2_MIN_ITERATIONS}`;
    return { kind: 'pbkdf2', iterations, salt: Buffer.from(match[2]!, 'hex'), hash: Buffer.from(match[3]!, 'hex') };
  }
  return 'the hashing algorithm cannot be determined (bcrypt $2y$... or PBKDF2 iterations:salt:hash)';
}

export async function passwordMatches(password: string, stored: PasswordHash): Promise<boolean> {
  if (stored.kind === 'bcrypt') return bcryptMatches(password, stored.hash);
  const computed = await pbkdf2Async(password, stored.salt, stored.iterations, stored.hash.length, 'sha1');
  return timingSafeEqual(computed, stored.hash);
}
