// Trust for HTTPS between nodes: the certificate authority of internalCommunication.caFile is added
// to the system ones for every request this process makes (fetch, through undici's global
// dispatcher, and the heartbeats' keep-alive agents), so nodes check each other's certificates.

import { readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { Agent as UndiciAgent, setGlobalDispatcher } from 'undici';
import { ConfigError } from '../../config/config-error.js';

let trustedAuthorities: string[] | undefined;

/**
 * Reads the CA file (a ConfigError names it, and the setting, when it cannot) and trusts it from now
 * on; `rejectUnauthorized: false` (the CLI's --insecure) trusts any certificate.
 */
export function trustCertificateAuthority(caFile: string | undefined, setting = 'internalCommunication.caFile', rejectUnauthorized = true): void {
  if (caFile === undefined) {
    setGlobalDispatcher(new UndiciAgent({ connect: { rejectUnauthorized } }));
    return;
  }
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read the certificate authority file ${caFile} (${setting}): ${(e as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`The certificate authority file ${caFile} (${setting}) holds no PEM certificate`);
  trustedAuthorities = [...rootCertificates, pem];
  setGlobalDispatcher(new UndiciAgent({ connect: { ca: trustedAuthorities, rejectUnauthorized } }));
}

/** Keep-alive agents for node:http requests to other nodes, by the scheme of their address. */
export class InternalAgents {
  private http: HttpAgent | undefined;
  private https: HttpsAgent | undefined;

  for(url: string): HttpAgent {
    if (url.startsWith('https:')) return (this.https ??= new HttpsAgent({ keepAlive: true, ca: trustedAuthorities }));
    return (this.http ??= new HttpAgent({ keepAlive: true }));
  }

  destroy(): void {
    this.http?.destroy();
    this.https?.destroy();
  }
}
