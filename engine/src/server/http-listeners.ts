// The ports a node listens on: plain HTTP (closed while client authentication is on, unless
// authentication.allowInsecureOverHttp), and HTTPS when http.https is enabled, with its certificate
// reloaded on change. A plain HTTP request sent to the HTTPS port gets a JSON 400 saying so rather
// than a failed handshake.

import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { EngineConfig } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import { ReloadingCertificate } from '../security/authentication/tls-certificate.js';
import { answerClientErrorsInJson } from './client-error.js';
import { errorBody } from '../errors/http-error.js';

/** The first byte of a TLS record carrying a handshake. */
const TLS_HANDSHAKE = 0x16;
const SHUTDOWN_GRACE_MILLIS = 5000;

export interface Listening {
  scheme: 'http' | 'https';
  /** The port of the address announced to other nodes: HTTPS when it is on. */
  port: number;
  httpPort?: number;
  httpsPort?: number;
}

export class HttpListeners {
  private readonly servers: Server[] = [];
  private sniffer: NetServer | undefined;
  private certificate: ReloadingCertificate | undefined;

  constructor(
    private readonly config: EngineConfig,
    private readonly logger: Logger,
  ) {}

  async listen(handler: RequestListener): Promise<Listening> {
    const https = this.config.http.https;
    const plainHttpOpen =
      this.config.authentication.types.length === 0 || this.config.authentication.allowInsecureOverHttp || https === undefined;
    let httpPort: number | undefined;
    let httpsPort: number | undefined;
    // Read first: a certificate that does not load stops the server before any port opens.
    if (https !== undefined) this.certificate = new ReloadingCertificate(https, this.logger);
    if (plainHttpOpen) {
      const server = createHttpServer(handler);
      httpPort = await this.start(server, this.config.http.port);
    }
    if (https !== undefined && this.certificate !== undefined) {
      const server: HttpsServer = createHttpsServer({ ...this.certificate.current }, handler);
      this.servers.push(server);
      answerClientErrorsInJson(server, this.logger);
      server.on('tlsClientError', (error: Error & { code?: string }, socket: Socket) => {
        this.logger.debug({ code: error.code, reason: error.message, remoteAddress: socket.remoteAddress }, 'TLS handshake refused');
        socket.destroy();
      });
      this.sniffer = createNetServer((socket) => routeByFirstByte(socket, server));
      httpsPort = await listenOn(this.sniffer, https.port, this.config.http.host);
      this.certificate.watch([server]);
    }
    return { scheme: https !== undefined ? 'https' : 'http', port: (httpsPort ?? httpPort)!, httpPort, httpsPort };
  }

  /** Checks the certificate files now (tests; otherwise every refresh period). */
  refreshCertificate(): boolean {
    return this.certificate?.refresh(this.servers.filter((s): s is HttpsServer => 'setSecureContext' in s)) ?? false;
  }

  /** Closes every port; graceful lets responses in flight finish, cutting stragglers after a grace period. */
  async close(graceful: boolean): Promise<void> {
    this.certificate?.stop();
    this.sniffer?.close();
    await Promise.all(
      this.servers.map(async (server) => {
        const closed = once(server, 'close');
        server.close();
        if (graceful) {
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MILLIS).unref();
        } else {
          server.closeAllConnections();
        }
        await closed;
      }),
    );
  }

  private async start(server: Server, port: number): Promise<number> {
    this.servers.push(server);
    answerClientErrorsInJson(server, this.logger);
    return listenOn(server, port, this.config.http.host);
  }
}

async function listenOn(server: NetServer, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  return (server.address() as AddressInfo).port;
}

/** Hands a TLS connection to the HTTPS server; answers anything else (plain HTTP) with a JSON 400. */
function routeByFirstByte(socket: Socket, https: HttpsServer): void {
  socket.once('error', () => socket.destroy());
  socket.once('readable', () => {
    const first = socket.read(1) as Buffer | null;
    if (first === null) {
      socket.destroy();
      return;
    }
    socket.unshift(first);
    if (first[0] === TLS_HANDSHAKE) {
      https.emit('connection', socket);
      return;
    }
    const body = JSON.stringify(
      errorBody('This port speaks HTTPS: a plain HTTP request was sent to it (use https://)', 'HTTP_TO_HTTPS_PORT'),
    );
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
