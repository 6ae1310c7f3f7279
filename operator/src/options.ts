// The operator's settings: flags, each also settable by an environment variable (the chart sets the
// variables). --help lists them.
import { parseArgs } from 'node:util';
import os from 'node:os';

export interface OperatorOptions {
  /** The namespace whose EngineClusters are run; all namespaces when empty. */
  watchNamespace: string | undefined;
  /** Where the leader election Lease lives (the operator's own namespace). */
  leaseNamespace: string;
  leaseName: string;
  leaseDurationSeconds: number;
  leaderElection: boolean;
  identity: string;
  /** host:port of /healthz and /readyz; empty for none. */
  healthAddress: string;
  logLevel: string;
  concurrency: number;
  autoscalePeriodMs: number;
}

export const usage = `Usage: engine-operator [options]

Runs EngineCluster resources (engine.io/v1alpha1): their coordinator, workers, drains and scaling.
Reads the Kubernetes API from the pod's service account, or $KUBECONFIG.

Options (environment variable in parentheses):
  --watch-namespace NS        run the EngineClusters of this namespace only; all when empty (WATCH_NAMESPACE)
  --leader-elect BOOL         take a Lease before acting, so replicas never act at once; default true (LEADER_ELECT)
  --lease-namespace NS        the Lease's namespace; default the pod's (POD_NAMESPACE)
  --lease-name NAME           default engine-operator (LEASE_NAME)
  --lease-duration SECONDS    how long a Lease that is not renewed holds; default 15 (LEASE_DURATION_SECONDS)
  --health-address HOST:PORT  serve /healthz and /readyz here; default :8081, none when empty (HEALTH_ADDRESS)
  --log-level LEVEL           trace, debug, info, warn, error; default info (LOG_LEVEL)
  --concurrency N             clusters reconciled at once; default 4 (CONCURRENCY)
  --autoscale-period SECONDS  how often autoscaled clusters are sampled; default 5 (AUTOSCALE_PERIOD_SECONDS)
  --help                      show this help
`;

export class UsageError extends Error {}

function positiveInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--${name} must be a positive whole number, got '${text}'`);
  return Number(text);
}

function bool(name: string, text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new UsageError(`--${name} must be true or false, got '${text}'`);
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): OperatorOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'watch-namespace': { type: 'string' },
        'leader-elect': { type: 'string' },
        'lease-namespace': { type: 'string' },
        'lease-name': { type: 'string' },
        'lease-duration': { type: 'string' },
        'health-address': { type: 'string' },
        'log-level': { type: 'string' },
        concurrency: { type: 'string' },
        'autoscale-period': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const pick = (flag: keyof typeof v, variable: string, fallback: string) => (v[flag] as string | undefined) ?? env[variable] ?? fallback;
  const logLevel = pick('log-level', 'LOG_LEVEL', 'info');
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(logLevel))
    throw new UsageError(`--log-level must be one of trace, debug, info, warn, error, got '${logLevel}'`);
  const watchNamespace = pick('watch-namespace', 'WATCH_NAMESPACE', '');
  return {
    watchNamespace: watchNamespace === '' ? undefined : watchNamespace,
    leaseNamespace: pick('lease-namespace', 'POD_NAMESPACE', 'default'),
    leaseName: pick('lease-name', 'LEASE_NAME', 'engine-operator'),
    leaseDurationSeconds: positiveInteger('lease-duration', pick('lease-duration', 'LEASE_DURATION_SECONDS', '15')),
    leaderElection: bool('leader-elect', pick('leader-elect', 'LEADER_ELECT', 'true')),
    identity: env.POD_NAME ?? `${os.hostname()}-${process.pid}`,
    healthAddress: pick('health-address', 'HEALTH_ADDRESS', ':8081'),
    logLevel,
    concurrency: positiveInteger('concurrency', pick('concurrency', 'CONCURRENCY', '4')),
    autoscalePeriodMs: positiveInteger('autoscale-period', pick('autoscale-period', 'AUTOSCALE_PERIOD_SECONDS', '5')) * 1000,
  };
}
