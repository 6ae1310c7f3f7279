// The password file: one `user:hash` line per user (blank lines and # comments skipped), reloaded
// every refresh period so an added or revoked user takes effect without a restart. At start a bad
// file stops the server with the line at fault; on reload it is logged and the last good file kept.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config/config-error.js';
import type { Logger } from '../../log/logger.js';
import { parsePasswordHash, type PasswordHash } from './password-hash.js';

export class PasswordFile {
  private users: ReadonlyMap<string, PasswordHash>;
  private fingerprint: string;
  private checkedAt: number;

  constructor(
    private readonly file: string,
    private readonly refreshPeriodMillis: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const loaded = load(file);
    this.users = loaded.users;
    this.fingerprint = loaded.fingerprint;
    this.checkedAt = now();
  }

  /** The stored hash of a user, from a file at most one refresh period old; a reload makes new hash objects, which the password cache notices. */
  lookup(user: string): PasswordHash | undefined {
    if (this.now() - this.checkedAt >= this.refreshPeriodMillis) this.refresh();
    return this.users.get(user);
  }

  private refresh(): void {
    this.checkedAt = this.now();
    let loaded: ReturnType<typeof load>;
    try {
      loaded = load(this.file);
    } catch (e) {
      this.logger.warn({ file: this.file, reason: (e as Error).message }, 'password file not reloaded: keeping the last good one');
      return;
    }
    if (loaded.fingerprint === this.fingerprint) return;
    this.users = loaded.users;
    this.fingerprint = loaded.fingerprint;
    this.logger.info({ file: this.file, users: loaded.users.size }, 'password file reloaded');
  }
}

function load(file: string): { users: Map<string, PasswordHash>; fingerprint: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read the password file ${file}: ${(e as Error).message}`);
  }
  const users = new Map<string, PasswordHash>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const where = `password file ${file} line ${index + 1}`;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ConfigError(`Invalid ${where}: expected user:hash`);
    const user = line.slice(0, colon);
    if (users.has(user)) throw new ConfigError(`Invalid ${where}: user '${user}' is listed twice`);
    const hash = parsePasswordHash(line.slice(colon + 1).trim());
    if (typeof hash === 'string') throw new ConfigError(`Invalid ${where} (user '${user}'): ${hash}`);
    users.set(user, hash);
  });
  return { users, fingerprint: createHash('sha256').update(text).digest('hex') };
}
