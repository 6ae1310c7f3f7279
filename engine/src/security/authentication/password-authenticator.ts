// PASSWORD authentication against the password file: the user and password of a Basic header are
// checked against the user's hash (slowly, by design), with successes remembered briefly as Trino's
// auth-token cache does, so a client polling a query pays the hash once. A remembered success holds
// an HMAC of the password under a key of this process, never the password, and ends when the file
// changes, so a revoked user is refused within the file's refresh period.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../../log/logger.js';
import type { PasswordAuthenticationConfig } from '../../config/authentication-config.js';
import { AuthenticationError } from './authentication-error.js';
import { GuessThrottle } from './guess-throttle.js';
import { PasswordFile } from './password-file.js';
import { passwordMatches, type PasswordHash } from './password-hash.js';
import { userMapping, type UserMapping } from './user-mapping.js';

interface Remembered {
  stored: PasswordHash;
  digest: Buffer;
  expiresAt: number;
}

export class PasswordAuthenticator {
  private readonly file: PasswordFile;
  private readonly cache = new Map<string, Remembered>();
  private readonly cacheKey = randomBytes(32);
  private readonly mapUser: UserMapping;
  readonly throttle = new GuessThrottle();

  constructor(
    private readonly config: PasswordAuthenticationConfig,
    logger: Logger,
  ) {
    this.file = new PasswordFile(config.file, config.refreshPeriod, logger);
    this.mapUser = userMapping(config.userMappingPattern, 'authentication.password.userMappingPattern');
  }

  /** The user a correct user and password name; throws AuthenticationError otherwise. */
  async authenticate(user: string, password: string, clientAddress: string): Promise<string> {
    const stored = this.file.lookup(user);
    const digest = createHmac('sha256', this.cacheKey).update(password).digest();
    if (stored !== undefined && this.remembered(user, stored, digest)) return this.mapped(user);
    const ok = await this.throttle.check(
      user,
      clientAddress,
      async () => stored !== undefined && (await passwordMatches(password, stored)),
    );
    // Unknown user and wrong password read the same, so the answer does not tell which user names exist.
    if (!ok) throw new AuthenticationError('Access Denied: Invalid credentials');
    this.remember(user, stored!, digest);
    return this.mapped(user);
  }

  private mapped(user: string): string {
    const mapped = this.mapUser(user);
    if (mapped === undefined)
      throw new AuthenticationError(`Access Denied: user '${user}' does not match authentication.password.userMappingPattern`);
    return mapped;
  }

  private remembered(user: string, stored: PasswordHash, digest: Buffer): boolean {
    const entry = this.cache.get(user);
    if (entry === undefined) return false;
    if (entry.stored !== stored || entry.expiresAt <= Date.now()) {
      this.cache.delete(user);
      return false;
    }
    return timingSafeEqual(entry.digest, digest);
  }

  private remember(user: string, stored: PasswordHash, digest: Buffer): void {
    if (this.config.cacheMaxSize === 0) return;
    this.cache.delete(user);
    if (this.cache.size >= this.config.cacheMaxSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(user, { stored, digest, expiresAt: Date.now() + this.config.cacheTtl });
  }
}
