// /healthz (the process answers) and /readyz (it is not stopping; a replica waiting for the Lease is
// ready too) for the kubelet's probes.
import http from 'node:http';

export function startHealthServer(address: string, ready: () => boolean): Promise<http.Server> {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon) || undefined;
  const port = Number(address.slice(colon + 1));
  const server = http.createServer((req, res) => {
    const ok = req.url === '/healthz' || (req.url === '/readyz' && ready());
    res.writeHead(req.url === '/healthz' || req.url === '/readyz' ? (ok ? 200 : 503) : 404, { 'Content-Type': 'text/plain' });
    res.end(ok ? 'ok\n' : 'not ready\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
