// `engine node`: a node's state from the outside. `engine node state` reads or sets it (PUT
// /v1/info/state); `engine node drain` takes the node out of service and waits until its process is
// gone (what a Kubernetes preStop hook runs).

import { parseDuration } from '../config/duration.js';
import { optionTable, parseCommandArguments, stringOption, UsageError, type OptionValues } from './args.js';
import { NodeClient, NodeUnreachableError } from '../internode/node-client.js';
import { ClientError } from '../internode/client-error.js';
import { InternalAuthenticator } from '../server/internal-auth/internal-authenticator.js';
import { findClusterSecret } from './cluster-secret-file.js';
import { drainNode } from './node-drain.js';
import { configureClientTls } from './client/client-credentials.js';

const TARGET_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['--server URL', "the node's address, e.g. http://worker-1:8080"],
  [
    '--local',
    'the node on this host: http://HOST:PORT, HOST from $ENGINE_HTTP_HOST unless it binds all interfaces, else 127.0.0.1; https:// when $ENGINE_HTTP_HTTPS_ENABLED is true, trusting $ENGINE_INTERNAL_COMMUNICATION_CA_FILE (the host name is not checked on loopback)',
  ],
  ['--port PORT', 'with --local: its port (default: $ENGINE_HTTP_PORT, else 8080; with HTTPS $ENGINE_HTTP_HTTPS_PORT, else 8443)'],
  ['--ca-file FILE', "PEM certificate authority to check an https:// node's certificate with"],
  ['--insecure', "do not check the node's certificate (testing only)"],
];

const SECRET_NOTE = `Moves carry a token signed with the nodes' shared secret, which nodes with one require: the one
in ENGINE_SHARED_SECRET, else, for a node of an 'engine cluster' running on this machine, the secret
it generated (it keeps it in ~/.engine/clusters/, readable only by you).`;

export const NODE_USAGE = `Usage: engine node <state|drain> [options]

Commands:
  state   read or set a node's state (engine node state --help)
  drain   take a node out of service and wait until its process is gone (engine node drain --help)
`;

const STATE_USAGE = `Usage: engine node state (--server URL | --local [--port PORT]) [STATE]

Prints the node's state; with STATE (ACTIVE, ISOLATING, ISOLATED or SHUTTING_DOWN) moves it there
first and prints the state it is in then. A move the node refuses exits with 1 and its reason.
${SECRET_NOTE}

Options:
${optionTable([...TARGET_OPTIONS, ['--help', 'show this help']])}
`;

const DRAIN_USAGE = `Usage: engine node drain (--server URL | --local [--port PORT]) [--timeout 10m] [--poll 1s] [--until-isolated]

Moves the node to ISOLATING (it takes no new work; what runs finishes), waits until /v1/status
shows it ISOLATED with no queries or tasks left, moves it to SHUTTING_DOWN, and waits until the
process is gone: its port refuses connections and, with --local, its process has exited. Prints
progress; exits 0 once the node is gone, 1 on timeout (naming what still runs), when nothing
listens at the address, or when someone moves the node back to ACTIVE. A pod's preStop hook runs
'engine node drain --local --until-isolated'.
${SECRET_NOTE}

Options:
${optionTable([
  ...TARGET_OPTIONS,
  ['--timeout DURATION', 'longest wait for all of it (default: 10m)'],
  ['--poll DURATION', 'how often to read /v1/status (default: 1s)'],
  [
    '--until-isolated',
    'return once the node is ISOLATED with no work left, not shutting it down: a preStop hook, after which the SIGTERM stops the idle node',
  ],
  ['--help', 'show this help'],
])}
`;

const TARGET_SPECS = {
  server: { type: 'string' },
  local: { type: 'boolean' },
  port: { type: 'string' },
  'ca-file': { type: 'string' },
  insecure: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export async function nodeCommand(args: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'state':
      return reportFailures(() => stateCommand(rest));
    case 'drain':
      return reportFailures(() => drainCommand(rest));
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(NODE_USAGE);
      return subcommand === undefined ? 2 : 0;
    default:
      throw new UsageError(`engine node: unknown command '${subcommand}'\n${NODE_USAGE}`);
  }
}

async function stateCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArguments('node state', args, TARGET_SPECS);
  if (values.help) {
    process.stdout.write(STATE_USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`engine node state: expected at most one state, got ${positionals.join(' ')}`);
  const client = nodeClient(nodeAddress('node state', values));
  const target = positionals[0];
  process.stdout.write(`${target === undefined ? await client.state() : await client.setState(target)}\n`);
  return 0;
}

async function drainCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArguments(
    'node drain',
    args,
    { ...TARGET_SPECS, timeout: { type: 'string' }, poll: { type: 'string' }, 'until-isolated': { type: 'boolean' } },
    false,
  );
  if (values.help) {
    process.stdout.write(DRAIN_USAGE);
    return 0;
  }
  const client = nodeClient(nodeAddress('node drain', values));
  return drainNode(client, {
    timeoutMillis: durationOption(values, 'timeout', '10m'),
    pollMillis: durationOption(values, 'poll', '1s'),
    local: values.local === true,
    untilIsolated: values['until-isolated'] === true,
    progress: (line) => process.stdout.write(`${line}\n`),
    failure: (line) => process.stderr.write(`${line}\n`),
  });
}

/** The server's refusal or an unreachable node: its message and exit code 1, not a stack trace. */
async function reportFailures(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ClientError || e instanceof NodeUnreachableError)) throw e;
    const unsigned = / 401 Unauthorized: /.test(e.message) && !process.env.ENGINE_SHARED_SECRET;
    process.stderr.write(`${e.message}\n${unsigned ? "Set ENGINE_SHARED_SECRET to the nodes' shared secret.\n" : ''}`);
    return 1;
  }
}

/**
 * A client of the node at `server`. With a shared secret (ENGINE_SHARED_SECRET, as in the node's own
 * container, where a preStop hook runs 'engine node drain --local'; or the secret of a local
 * `engine cluster` that has this node), PUT /v1/info/state carries the internal bearer token.
 */
function nodeClient(server: string): NodeClient {
  const fromEnvironment = process.env.ENGINE_SHARED_SECRET;
  const secret = fromEnvironment === undefined || fromEnvironment === '' ? findClusterSecret(server)?.secret : fromEnvironment;
  const auth = new InternalAuthenticator(secret, 'engine-cli');
  return new NodeClient(server, () => auth.authorizationHeader());
}

/** --server URL, or --local: the node on this host, found as `engine server` would bind it from the environment. */
function nodeAddress(command: string, values: OptionValues): string {
  const server = stringOption(values, 'server');
  const port = stringOption(values, 'port');
  const caFile = stringOption(values, 'ca-file');
  if (values.local === true) {
    if (server !== undefined) throw new UsageError(`engine ${command}: use either --server or --local, not both`);
    const https = process.env.ENGINE_HTTP_HTTPS_ENABLED === 'true';
    const portVariable = https ? 'ENGINE_HTTP_HTTPS_PORT' : 'ENGINE_HTTP_PORT';
    const chosen = port ?? process.env[portVariable] ?? (https ? '8443' : '8080');
    if (!/^\d+$/.test(chosen) || Number(chosen) < 1 || Number(chosen) > 65535) {
      throw new UsageError(
        `engine ${command}: the port must be a number from 1 to 65535, got '${chosen}'${port === undefined ? ` (from ${portVariable})` : ''}`,
      );
    }
    // The node's own certificate names the addresses others use, rarely loopback: its chain is checked, not its name.
    if (https)
      configureClientTls(
        command,
        caFile ?? (process.env.ENGINE_INTERNAL_COMMUNICATION_CA_FILE || undefined),
        values.insecure === true,
        false,
      );
    return `${https ? 'https' : 'http'}://${localHost(process.env.ENGINE_HTTP_HOST)}:${chosen}`;
  }
  configureClientTls(command, caFile, values.insecure === true);
  if (port !== undefined) throw new UsageError(`engine ${command}: --port goes with --local; with --server, put the port in the URL`);
  if (server === undefined)
    throw new UsageError(
      `engine ${command}: say which node: --server URL, or --local for the node on this host\nRun 'engine ${command} --help' for the options.`,
    );
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`engine ${command}: --server must be a URL such as http://worker-1:8080, got '${server}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`engine ${command}: --server must be an http:// or https:// URL, got '${server}'`);
  return url.origin;
}

/** Where a server bound to `bindHost` answers on this host: that address, or loopback for all interfaces. */
function localHost(bindHost: string | undefined): string {
  if (bindHost === undefined || bindHost === '' || bindHost === '0.0.0.0' || bindHost === '::') return '127.0.0.1';
  return bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
}

function durationOption(values: OptionValues, name: string, fallback: string): number {
  const text = stringOption(values, name) ?? fallback;
  const millis = parseDuration(text);
  if (millis === undefined || millis <= 0)
    throw new UsageError(`engine node drain: --${name} must be a duration such as 30s or 10m, got '${text}'`);
  return millis;
}
