// A CA and a server certificate made by a test with openssl, as an administrator (or cert-manager)
// makes them for an EngineCluster: the files of a kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt).
// And a password file in the PBKDF2 form Trino's file authenticator reads, hashed here with Node's
// crypto (not by the engine).
import { execFileSync } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface TlsSecretFiles {
  dir: string;
  /** PEM of the CA, for the clients. */
  ca: string;
}

/** ca.crt, and tls.crt / tls.key naming `names` (IP:... or DNS:... entries), in `dir`. */
export function makeTlsSecretFiles(dir: string, names: string[]): TlsSecretFiles {
  fs.mkdirSync(dir, { recursive: true });
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=EngineCluster Test CA',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'tls.key',
    '-out',
    'tls.csr',
    '-subj',
    '/CN=engine',
  );
  fs.writeFileSync(
    path.join(dir, 'tls.ext'),
    `subjectAltName=${names.join(',')}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth,clientAuth\n`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'tls.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tls.crt',
    '-days',
    '2',
    '-extfile',
    'tls.ext',
  );
  return { dir, ca: fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8') };
}

/** A password file of `user:iterations:salt:hash` lines (PBKDF2-HMAC-SHA1, hex). */
export function writePbkdf2PasswordFile(file: string, users: Record<string, string>): void {
  const lines = Object.entries(users).map(([user, password]) => {
    const salt = randomBytes(16);
    return `${user}:1000:${salt.toString('hex')}:${pbkdf2Sync(password, salt, 1000, 32, 'sha1').toString('hex')}`;
  });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}
