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

export interface TrustOptions {
  /** The setting or option that named the file, for messages. */
  setting?: string;
  /** false (the CLI's --insecure): any certificate is accepted. */
  rejectUnauthorized?: boolean;
  /** false: the chain is checked but not the host name (a node reached on loopback by its own pod). */
  checkServerName?: boolean;
}

/**
 * Trusts the CA file (on top of the system CAs) for every request this process makes from now on; a
 * ConfigError names the file and the setting when it cannot be read.
 */
export function trustCertificateAuthority(caFile: string | undefined, options: TrustOptions = {}): void {
  const setting = options.setting ?? 'internalCommunication.caFile';
  if (caFile !== undefined) {
    let pem: string;
    try {
      pem = readFileSync(caFile, 'utf8');
    } catch (e) {
      throw new ConfigError(`Cannot read the certificate authority file ${caFile} (${setting}): ${(e as Error).message}`);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new ConfigError(`The certificate authority file ${caFile} (${setting}) holds no PEM certificate`);
    trustedAuthorities = [...rootCertificates, pem];
  }
  const checkServerIdentity = options.checkServerName === false ? () => undefined : undefined;
  setGlobalDispatcher(
    new UndiciAgent({
      connect: {
        ca: trustedAuthorities,
        rejectUnauthorized: options.rejectUnauthorized ?? true,
        ...(checkServerIdentity ? { checkServerIdentity } : {}),
      },
    }),
  );
}

/**
 * A dispatcher for fetch trusting the system CAs plus `caPem`, for one client rather than the whole
 * process (the operator talks to clusters of different CAs).
 */
export function dispatcherTrusting(caPem: string): UndiciAgent {
  return new UndiciAgent({ connect: { ca: [...rootCertificates, caPem] } });
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
