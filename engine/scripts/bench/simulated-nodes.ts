// Many worker nodes simulated in one process, for measuring what a coordinator pays per node: each
// node has its own HTTP server on its own loopback address (127.0.1.x; one port each on 127.0.0.1
// where the system does not route 127.0.1.0/24 to loopback) that answers the coordinator's health
// check (GET /v1/status) and GET /v1/info with a real node's bodies, and announces itself to the
// coordinator with the engine's own Announcer on the announcement interval. The nodes join together
// (one announcement each at once, as a cluster that starts at once), and then renew on phases spread
// over the interval, as the workers of a real cluster do: their processes started at different
// moments and their timers drift apart, while in one process timers set together stay together.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { buildAnnouncement } from '../../src/internode/announcement.js';
import { createLogger } from '../../src/log/logger.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { Announcer } from '../../src/server/announcer.js';

export interface SimulatedNodesOptions {
  /** The coordinator's address (--discovery-uri of a real worker). */
  discoveryUri: string;
  environment: string;
  count: number;
  announcementIntervalMillis: number;
  /** Node ids are `${idPrefix}-1` .. `${idPrefix}-${count}`. */
  idPrefix?: string;
}

/** A real node's GET /v1/status and /v1/info bodies, which each simulated node answers as its own. */
export interface NodeBodies {
  status: Record<string, unknown>;
  info: Record<string, unknown>;
}

export class SimulatedNode {
  readonly server: Server;
  /** Its address, once it listens (it keeps it after it stops answering). */
  uri = '';
  private readonly sockets = new Set<Socket>();
  private statusBody = '';
  private infoBody = '';
  /** GET /v1/status requests this node answered. */
  statusRequests = 0;
  private announcer: Announcer | undefined;
  private renewalTimer: NodeJS.Timeout | undefined;
  private answering = true;

  constructor(
    readonly nodeId: string,
    private readonly host: string,
  ) {
    this.server = createServer((request, response) => {
      const path = request.method === 'GET' ? request.url : undefined;
      const body = path === '/v1/status' ? this.statusBody : path === '/v1/info' ? this.infoBody : undefined;
      if (path === '/v1/status') this.statusRequests++;
      response.setHeader('Content-Type', 'application/json');
      if (body === undefined) {
        response.statusCode = 404;
        response.end(JSON.stringify({ error: { errorName: 'NOT_FOUND', message: `${request.method} ${request.url} is not simulated` } }));
      } else {
        response.end(body);
      }
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on a free port of its host; resolves with its address. */
  async listen(): Promise<string> {
    this.server.listen(0, this.host);
    await once(this.server, 'listening');
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error(`simulated node ${this.nodeId} has no port`);
    this.uri = `http://${this.host}:${address.port}`;
    return this.uri;
  }

  /** The bodies it answers: the template's, with this node's id, address and worker role. */
  setBodies(template: NodeBodies): void {
    const uri = this.uri;
    this.statusBody = JSON.stringify({
      ...template.status,
      nodeId: this.nodeId,
      coordinator: false,
      externalAddress: uri,
      internalAddress: uri,
    });
    this.infoBody = JSON.stringify({ ...template.info, coordinator: false });
  }

  /** Joins with one announcement now; from `phaseMillis` on the Announcer renews it every interval. */
  async join(options: SimulatedNodesOptions, version: string, phaseMillis: number): Promise<void> {
    const node = { nodeId: this.nodeId, environment: options.environment, uri: this.uri, version, coordinator: false };
    const address = `${options.discoveryUri.replace(/\/+$/, '')}/v1/announcement/${encodeURIComponent(this.nodeId)}`;
    const response = await fetch(address, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(buildAnnouncement(node)),
    });
    if (!response.ok) throw new Error(`the coordinator refused simulated node ${this.nodeId}: ${response.status} ${await response.text()}`);
    this.announcer = new Announcer(
      options.discoveryUri,
      () => node,
      options.announcementIntervalMillis,
      createLogger('warn', { nodeId: this.nodeId }),
      new InternalAuthenticator(undefined, this.nodeId),
    );
    this.renewalTimer = setTimeout(() => this.announcer!.start(), phaseMillis);
  }

  /**
   * The node's HTTP server goes away (connections refused, open ones reset) while it keeps
   * announcing: the coordinator hears from it but cannot reach it, so it fails every health check.
   */
  async stopAnswering(): Promise<void> {
    if (!this.answering) return;
    this.answering = false;
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Withdraws the announcement (as a worker that shuts down does) and closes the server. */
  async stop(): Promise<void> {
    clearTimeout(this.renewalTimer);
    await this.announcer?.stop();
    await this.stopAnswering();
  }
}

export class SimulatedNodes {
  private constructor(
    readonly nodes: SimulatedNode[],
    /** Whether the nodes listen on addresses of their own (127.0.1.x) or share 127.0.0.1. */
    readonly ownAddresses: boolean,
  ) {}

  /**
   * Starts `count` nodes answering `bodies` and announcing to the coordinator. `bodies` defaults to
   * the coordinator's own /v1/status and /v1/info, which have every field a worker's have.
   */
  static async start(options: SimulatedNodesOptions, bodies?: NodeBodies): Promise<SimulatedNodes> {
    const template = bodies ?? (await nodeBodiesOf(options.discoveryUri));
    const ownAddresses = await loopbackAliasesWork();
    const prefix = options.idPrefix ?? 'simulated';
    const nodes = Array.from(
      { length: options.count },
      (_, i) => new SimulatedNode(`${prefix}-${i + 1}`, ownAddresses ? loopbackAlias(i) : '127.0.0.1'),
    );
    const simulated = new SimulatedNodes(nodes, ownAddresses);
    try {
      await Promise.all(nodes.map((n) => n.listen()));
    } catch (e) {
      await simulated.stop();
      throw e;
    }
    const version = (template.info.nodeVersion as { version?: string } | undefined)?.version ?? 'unknown';
    for (const node of nodes) node.setBodies(template);
    const interval = options.announcementIntervalMillis;
    try {
      await Promise.all(nodes.map((node, i) => node.join(options, version, interval + (i * interval) / nodes.length)));
    } catch (e) {
      await simulated.stop();
      throw e;
    }
    return simulated;
  }

  /** Health checks answered by all nodes so far. */
  statusRequests(): number {
    return this.nodes.reduce((sum, n) => sum + n.statusRequests, 0);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
  }
}

/** The i-th (0-based) address of 127.0.1.1 .. 127.0.1.254, 127.0.2.1 ... */
function loopbackAlias(i: number): string {
  return `127.0.${1 + Math.floor(i / 254)}.${1 + (i % 254)}`;
}

/** Linux routes all of 127.0.0.0/8 to loopback; other systems may only have 127.0.0.1. */
async function loopbackAliasesWork(): Promise<boolean> {
  const probe = createServer();
  try {
    probe.listen(0, loopbackAlias(0));
    await once(probe, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    probe.close();
  }
}

async function nodeBodiesOf(uri: string): Promise<NodeBodies> {
  const read = async (path: string) => {
    const response = await fetch(`${uri}${path}`);
    if (!response.ok) throw new Error(`GET ${uri}${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return { status: await read('/v1/status'), info: await read('/v1/info') };
}
