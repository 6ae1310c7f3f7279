// The server's TLS certificate and key, read from PEM files and reloaded when they change. Kubernetes
// updates a mounted Secret by swapping a symlink, which file watchers miss; so the files are read
// again every refresh period (as Trino does every minute) and compared by content. A new pair that
// does not load (a key that does not match, a wrong passphrase) is logged and the last good pair kept.

import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { ConfigError } from '../../config/config-error.js';
import type { Logger } from '../../log/logger.js';
import type { HttpsConfig } from '../../config/authentication-config.js';

export interface CertificateTarget {
  setSecureContext(options: SecureContextOptions): void;
}

export class ReloadingCertificate {
  private fingerprint: string;
  private timer: NodeJS.Timeout | undefined;
  /** The options of the pair in use. */
  current: SecureContextOptions;

  /** Reads and checks the files; throws ConfigError saying what is wrong with them. */
  constructor(
    private readonly config: HttpsConfig,
    private readonly logger: Logger,
  ) {
    const loaded = this.load();
    this.current = loaded.options;
    this.fingerprint = loaded.fingerprint;
  }

  /** Checks the files every refresh period and hands a changed, valid pair to the servers. */
  watch(targets: readonly CertificateTarget[]): void {
    this.timer = setInterval(() => this.refresh(targets), this.config.refreshPeriod);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reloads now if the files changed; true when a new pair is in use. */
  refresh(targets: readonly CertificateTarget[]): boolean {
    let loaded: { options: SecureContextOptions; fingerprint: string };
    try {
      loaded = this.load();
    } catch (e) {
      this.logger.warn(
        { certificateFile: this.config.certificateFile, keyFile: this.config.keyFile, reason: (e as Error).message },
        'TLS certificate not reloaded: keeping the last good one',
      );
      return false;
    }
    if (loaded.fingerprint === this.fingerprint) return false;
    for (const target of targets) target.setSecureContext(loaded.options);
    this.current = loaded.options;
    this.fingerprint = loaded.fingerprint;
    this.logger.info(describeCertificate(loaded.options.cert as string), 'TLS certificate reloaded');
    return true;
  }

  private load(): { options: SecureContextOptions; fingerprint: string } {
    const cert = readPem(this.config.certificateFile, 'certificate (http.https.certificateFile)');
    const key = readPem(this.config.keyFile, 'key (http.https.keyFile)');
    const options: SecureContextOptions = { cert, key, passphrase: this.config.keyPassphrase, minVersion: 'TLSv1.2' };
    const cannotUse = `Cannot use the TLS certificate ${this.config.certificateFile} with the key ${this.config.keyFile}`;
    if (!decryptsWith(key, this.config.keyPassphrase)) throw new ConfigError(`${cannotUse}: ${WRONG_PASSPHRASE}`);
    try {
      createSecureContext(options);
    } catch (e) {
      throw new ConfigError(`${cannotUse}: ${explain(e as Error & { code?: string }, this.config.keyPassphrase !== undefined)}`);
    }
    if (!belongsTo(cert, key, this.config.keyPassphrase)) throw new ConfigError(`${cannotUse}: ${KEY_MISMATCH}`);
    return { options, fingerprint: createHash('sha256').update(cert).update('\0').update(key).digest('hex') };
  }
}

function readPem(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read the TLS ${what} ${file}: ${(e as Error).message}`);
  }
  if (!text.includes('-----BEGIN ')) throw new ConfigError(`The TLS ${what} ${file} is not PEM (no -----BEGIN line)`);
  return text;
}

/**
 * Whether an encrypted key decrypts with the passphrase (true for a plain key or no passphrase). Decrypting with a wrong
 * passphrase usually fails its padding check ("bad decrypt"), but about one time in 200 the garbage
 * pads correctly and the decoder then fails on it ("unsupported", ASN.1 errors): both mean the
 * passphrase is wrong, which only the knowledge that the key is encrypted can tell.
 */
function decryptsWith(key: string, passphrase: string | undefined): boolean {
  const encrypted = key.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || /^Proc-Type: 4,ENCRYPTED/m.test(key);
  if (!encrypted || passphrase === undefined) return true;
  try {
    createPrivateKey({ key, passphrase });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the key is the certificate's. OpenSSL checks this only for keys of the certificate's type:
 * an EC key beside an RSA certificate loads into another slot and fails at the first handshake.
 */
function belongsTo(cert: string, key: string, passphrase: string | undefined): boolean {
  return new X509Certificate(cert).checkPrivateKey(createPrivateKey({ key, passphrase }));
}

const WRONG_PASSPHRASE = 'the key passphrase (http.https.keyPassphrase) is wrong';
const KEY_MISMATCH = 'the key does not belong to the certificate';

function explain(error: Error & { code?: string }, hasPassphrase: boolean): string {
  const message = error.message;
  if (/bad decrypt|bad password|BAD_DECRYPT/i.test(message)) return WRONG_PASSPHRASE;
  if (/passphrase|PEM_read_bio_PrivateKey|interrupted or cancelled/i.test(message) && !hasPassphrase)
    return 'the key is encrypted: set http.https.keyPassphrase';
  if (/KEY_VALUES_MISMATCH|key values mismatch/i.test(message)) return KEY_MISMATCH;
  return message;
}

/** What the log says of a certificate: subject, issuer, expiry (never the key). */
export function describeCertificate(pem: string): Record<string, string> {
  const cert = new X509Certificate(pem);
  return { subject: cert.subject.replace(/\n/g, ', '), issuer: cert.issuer.replace(/\n/g, ', '), validTo: cert.validTo };
}
