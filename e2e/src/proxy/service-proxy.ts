// The Service proxy (kube-proxy's job): a TCP listener on each Service's cluster IP and port (and
// on the node's IP at each nodePort), forwarding every connection to one endpoint of the Service's
// EndpointSlices, in turn. Only ready endpoints are used; with none ready, serving endpoints that
// are terminating are (kube-proxy's fallback during rollouts); with none at all the connection is
// reset. UDP and SCTP ports are not proxied.
import net from 'node:net';
import type { KubeObject } from '../apiserver/types.js';
import { EventRecorder } from '../cluster/events.js';
import { kinds, type Objects } from '../cluster/objects.js';
import type { ClusterNetwork } from '../net/network.js';
import { serviceNameLabel } from '../controllers/endpoints.js';

interface Route {
  namespace: string;
  service: string;
  portName: string;
}

interface Listener {
  server: net.Server;
  route: Route;
}

interface SliceEndpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
}

interface Slice {
  endpoints?: SliceEndpoint[];
  ports?: { name?: string; port: number; protocol?: string }[];
}

export class ServiceProxy {
  private readonly listeners = new Map<string, Listener>();
  private readonly sockets = new Set<net.Socket>();
  private readonly turns = new Map<string, number>();
  private readonly recorder: EventRecorder;
  private readonly unsubscribe: (() => void)[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly objects: Objects,
    private readonly network: ClusterNetwork,
  ) {
    this.recorder = new EventRecorder(objects, 'kube-proxy');
  }

  start(): void {
    this.unsubscribe.push(this.objects.watch(kinds.services, () => this.schedule()));
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.reconcile();
    });
  }

  /** Opens a listener for every Service port that lacks one and closes the ones no longer wanted. */
  private reconcile(): void {
    if (this.stopped) return;
    const wanted = new Map<string, { route: Route; host: string; port: number; svc: KubeObject }>();
    for (const svc of this.objects.list(kinds.services)) {
      const spec = svc.spec as {
        clusterIP?: string;
        type?: string;
        ports?: { name?: string; port: number; nodePort?: number; protocol?: string }[];
      };
      if (spec.type === 'ExternalName') continue;
      for (const p of spec.ports ?? []) {
        if ((p.protocol ?? 'TCP') !== 'TCP') continue;
        const route = { namespace: svc.metadata.namespace!, service: svc.metadata.name!, portName: p.name ?? '' };
        if (spec.clusterIP && spec.clusterIP !== 'None')
          wanted.set(`${spec.clusterIP}:${p.port}`, { route, host: spec.clusterIP, port: p.port, svc });
        if (p.nodePort) wanted.set(`${this.network.nodeIp}:${p.nodePort}`, { route, host: this.network.nodeIp, port: p.nodePort, svc });
      }
    }
    for (const [key, l] of this.listeners)
      if (JSON.stringify(wanted.get(key)?.route) !== JSON.stringify(l.route)) {
        l.server.close();
        this.listeners.delete(key);
      }
    for (const [key, w] of wanted) {
      if (this.listeners.has(key)) continue;
      const server = net.createServer((socket) => this.forward(socket, w.route));
      server.on('error', (err) => {
        this.listeners.delete(key);
        this.recorder.record(w.svc, 'Warning', 'FailedToListen', `kube-proxy could not listen on ${key}: ${err.message}`);
      });
      server.listen(w.port, w.host);
      this.listeners.set(key, { server, route: w.route });
    }
  }

  /** The endpoint for the next connection: ready ones in turn, else serving terminating ones. */
  private pick(route: Route): { host: string; port: number } | undefined {
    const candidates: { ready: { host: string; port: number }[]; terminating: { host: string; port: number }[] } = {
      ready: [],
      terminating: [],
    };
    for (const slice of this.objects.list(kinds.endpointSlices, route.namespace)) {
      if (slice.metadata.labels?.[serviceNameLabel] !== route.service) continue;
      const s = slice as unknown as Slice;
      const port = (s.ports ?? []).find((p) => (p.name ?? '') === route.portName)?.port;
      if (port === undefined) continue;
      for (const e of s.endpoints ?? []) {
        const c = e.conditions ?? {};
        if (c.ready !== false) candidates.ready.push(...e.addresses.map((host) => ({ host, port })));
        else if (c.serving && c.terminating) candidates.terminating.push(...e.addresses.map((host) => ({ host, port })));
      }
    }
    const list = candidates.ready.length ? candidates.ready : candidates.terminating;
    if (list.length === 0) return undefined;
    const key = `${route.namespace}/${route.service}:${route.portName}`;
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, turn + 1);
    return list[turn % list.length];
  }

  private forward(client: net.Socket, route: Route): void {
    const target = this.pick(route);
    if (!target) {
      resetConnection(client);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on('error', () => resetConnection(client));
    client.on('error', () => upstream.destroy());
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    for (const l of this.listeners.values()) l.server.close();
    this.listeners.clear();
    for (const s of this.sockets) s.destroy();
  }
}

/**
 * Closes a client's connection with a reset, as a refused or broken upstream looks to it. Not once its
 * write side was ended: Node's reset then fails with EINVAL and leaves the handle half-closed, which
 * holds the process at exit, spinning (a plain close there).
 */
function resetConnection(socket: net.Socket): void {
  if (socket.destroyed || socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}
