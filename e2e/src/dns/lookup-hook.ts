// Loaded with `node --import` into every Node process the process kubelet runs for a pod: names
// ending in .svc (or .svc.cluster.local) are looked up in the cluster DNS file (cluster-dns.ts)
// instead of the machine's resolver, as a pod's resolver asks the cluster's DNS; a .svc name the file
// lacks is not found (ENOTFOUND), as in a cluster. Every other name goes to the machine's resolver.
import dns from 'node:dns';
import fs from 'node:fs';

const file = process.env.KUBE_TEST_CLUSTER_DNS;

function clusterName(hostname: string): string | undefined {
  const name = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/\.cluster\.local$/, '');
  return name.endsWith('.svc') ? name : undefined;
}

function recordOf(name: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(file!, 'utf8')) as Record<string, string>)[name];
  } catch {
    return undefined;
  }
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;

if (file) {
  const machine = dns.lookup;
  const lookup = (hostname: string, options: unknown, callback?: unknown): void => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    const name = clusterName(hostname);
    if (name === undefined) {
      (machine as (...args: unknown[]) => void)(hostname, ...(typeof options === 'function' ? [] : [options]), done);
      return;
    }
    const address = recordOf(name);
    const all = typeof options === 'object' && options !== null && (options as dns.LookupAllOptions).all === true;
    process.nextTick(() => {
      if (address === undefined) done(notFound(hostname));
      else if (all) done(null, [{ address, family: 4 }]);
      else done(null, address, 4);
    });
  };
  (dns as { lookup: unknown }).lookup = lookup;
}
