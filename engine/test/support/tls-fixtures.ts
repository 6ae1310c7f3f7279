// Certificates, password files and JWT keys made by a test: a root CA, an intermediate CA and a
// server certificate for 127.0.0.1 and localhost signed by it (openssl, as an operator would make
// them), the server's key plain and encrypted with a passphrase, and an htpasswd file hashed with
// bcrypt by a library (not by the engine).

import bcrypt from 'bcryptjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const KEY_PASSPHRASE = 'the key passphrase 41d0';

export interface TlsFiles {
  dir: string;
  /** The root CA clients trust. */
  caFile: string;
  ca: string;
  /** Server certificate then the intermediate CA's. */
  chainFile: string;
  keyFile: string;
  encryptedKeyFile: string;
  remove(): void;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA, an intermediate and a server certificate named `name` (files name.crt, name.key) in `dir`. */
export function issueServerCertificate(dir: string, name: string, subject = '/CN=engine-test-server'): void {
  openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
  writeFileSync(join(dir, `${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'intermediate.crt',
    '-CAkey',
    'intermediate.key',
    '-CAcreateserial',
    '-out',
    `${name}.leaf`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  );
  writeFileSync(
    join(dir, `${name}.crt`),
    readFileSync(join(dir, `${name}.leaf`), 'utf8') + readFileSync(join(dir, 'intermediate.crt'), 'utf8'),
  );
}

export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'engine-tls-'));
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=Engine Test Root CA',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'intermediate.key',
    '-out',
    'intermediate.csr',
    '-subj',
    '/CN=Engine Test Intermediate CA',
  );
  writeFileSync(join(dir, 'ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'intermediate.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'intermediate.crt',
    '-days',
    '2',
    '-extfile',
    'ca.ext',
  );
  issueServerCertificate(dir, 'server');
  openssl(dir, 'pkey', '-in', 'server.key', '-aes256', '-passout', `pass:${KEY_PASSPHRASE}`, '-out', 'server-encrypted.key');
  const caFile = join(dir, 'ca.crt');
  return {
    dir,
    caFile,
    ca: readFileSync(caFile, 'utf8'),
    chainFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
    encryptedKeyFile: join(dir, 'server-encrypted.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An htpasswd file: `user:$2y$<cost>$...` lines, hashed by bcryptjs. */
export function writePasswordFile(file: string, users: Record<string, string>, cost = 8): void {
  const lines = Object.entries(users).map(([user, password]) => `${user}:${bcrypt.hashSync(password, cost).replace(/^\$2b\$/, '$2y$')}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
