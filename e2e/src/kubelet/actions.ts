// The actions probes and lifecycle hooks run (exec, httpGet, tcpSocket, sleep), with the kubelet's
// rules: HTTP 200-399 is success and the host defaults to the pod's IP; exec succeeds on exit 0
// and is killed at the timeout; messages read as the real kubelet words them in events.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { CommandResult } from './processes.js';
import type { ContainerPort, Handler } from './pod-spec.js';

export type ActionResult = { ok: true } | { ok: false; message: string };

export interface ActionContext {
  podIp: string;
  ports: ContainerPort[];
  /** Runs a command inside the container (its image's executables, env, mounts). */
  exec: (command: string[], timeoutMs: number) => Promise<CommandResult>;
}

function portNumber(port: number | string, ports: ContainerPort[]): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return ports.find((p) => p.name === port)?.containerPort;
}

function httpGet(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<ActionResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.get(
      url,
      { headers: { 'User-Agent': 'kube-probe/1.32', Accept: '*/*', ...headers }, timeout: timeoutMs, rejectUnauthorized: false },
      (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        resolve(code >= 200 && code < 400 ? { ok: true } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ ok: false, message: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ECONNREFUSED' ? 'connect: connection refused' : err.message;
      resolve({ ok: false, message: `Get "${url}": dial tcp ${url.host}: ${why}` });
    });
  });
}

function tcpConnect(host: string, port: number, timeoutMs: number): Promise<ActionResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true });
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve({ ok: false, message: `dial tcp ${host}:${port}: i/o timeout` });
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      resolve({
        ok: false,
        message: `dial tcp ${host}:${port}: ${err.code === 'ECONNREFUSED' ? 'connect: connection refused' : err.message}`,
      }),
    );
  });
}

export async function runAction(handler: Handler, ctx: ActionContext, timeoutMs: number): Promise<ActionResult> {
  if (handler.exec) {
    const command = handler.exec.command ?? [];
    if (command.length === 0) return { ok: false, message: 'exec: no command given' };
    let result: CommandResult;
    try {
      result = await ctx.exec(command, timeoutMs);
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    if (result.timedOut) return { ok: false, message: `command ${JSON.stringify(command.join(' '))} timed out` };
    return result.code === 0
      ? { ok: true }
      : { ok: false, message: result.output.trim() || `command ${JSON.stringify(command.join(' '))} exited with ${result.code}` };
  }
  if (handler.httpGet) {
    const g = handler.httpGet;
    const port = portNumber(g.port, ctx.ports);
    if (port === undefined) return { ok: false, message: `unable to find port ${JSON.stringify(g.port)} among the container's ports` };
    const scheme = (g.scheme ?? 'HTTP').toLowerCase();
    const pathPart = (g.path ?? '/').startsWith('/') ? (g.path ?? '/') : `/${g.path}`;
    const url = new URL(`${scheme}://${g.host || ctx.podIp}:${port}${pathPart}`);
    return httpGet(url, Object.fromEntries((g.httpHeaders ?? []).map((h) => [h.name, h.value])), timeoutMs);
  }
  if (handler.tcpSocket) {
    const port = portNumber(handler.tcpSocket.port, ctx.ports);
    if (port === undefined)
      return { ok: false, message: `unable to find port ${JSON.stringify(handler.tcpSocket.port)} among the container's ports` };
    return tcpConnect(handler.tcpSocket.host || ctx.podIp, port, timeoutMs);
  }
  if (handler.sleep) {
    await new Promise((r) => setTimeout(r, Math.min(handler.sleep!.seconds * 1000, timeoutMs)));
    return { ok: true };
  }
  if (handler.grpc) return { ok: false, message: 'grpc probes are not supported by the process kubelet (exec, httpGet and tcpSocket are)' };
  return { ok: false, message: 'the handler names no action (exec, httpGet, tcpSocket or sleep)' };
}
