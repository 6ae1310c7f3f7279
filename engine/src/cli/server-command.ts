// `engine server`: loads the configuration (file, environment, flags) and runs a node until it shuts
// down. SIGTERM or SIGINT starts a graceful shutdown, as PUT /v1/info/state "SHUTTING_DOWN" does
// (running queries finish, for at most shutdown.gracePeriod); a second signal stops it at once.

import { loadConfig } from '../config/config-loader.js';
import { checkNodeMemoryFitsHeap } from '../config/heap-limit.js';
import { SETTINGS, envName } from '../config/settings.js';
import { createLogger } from '../log/logger.js';
import { startServer } from '../server/engine-server.js';
import { optionTable, parseCommandLine, stringOption } from './args.js';

export const SERVER_USAGE = `Usage: engine server [--config FILE] [options]

Runs a node. --role single (the default) is coordinator and worker in one process; --role
coordinator takes clients' queries and keeps the nodes that announce themselves to it (it still
runs every query itself in this version); --role worker announces itself to --discovery-uri and
serves no statements. SIGTERM or SIGINT shuts it down gracefully (running queries finish, for at
most shutdown.gracePeriod); a second signal stops it at once, failing the queries still running.

Options (each overrides the configuration file; the environment variable overrides the file too):
${optionTable([
  ['--config FILE', 'configuration file (.yaml, .yml or .json)'],
  ...SETTINGS.map((s) => [`--${s.flag} VALUE`, `${s.path.join('.')} (${envName(s)})`] as const),
  ['--help', 'show this help'],
])}
`;

export async function serverCommand(args: readonly string[]): Promise<number> {
  const options = Object.fromEntries([
    ['config', { type: 'string' as const }],
    ['help', { type: 'boolean' as const }],
    ...SETTINGS.map((s) => [s.flag, { type: 'string' as const }]),
  ]);
  const values = parseCommandLine('server', args, options);
  if (values.help) {
    process.stdout.write(SERVER_USAGE);
    return 0;
  }
  const flags = Object.fromEntries(SETTINGS.map((s) => [s.flag, stringOption(values, s.flag)]));
  const config = loadConfig({ file: stringOption(values, 'config'), env: process.env, flags });
  checkNodeMemoryFitsHeap(config.memory.nodeMemory);
  const logger = createLogger(config.log.level, { nodeId: config.node.id });
  const starting = startServer(config, logger);
  // Installed before the server listens, so a signal during startup still stops it cleanly.
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    const first = ++signals === 1;
    logger.info({ signal }, first ? 'shutting down on signal (a second signal stops at once)' : 'stopping at once on a second signal');
    void starting.then(
      (server) => (first ? server.beginShutdown() : server.stop()),
      () => undefined,
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const server = await starting;
  await server.stopped;
  logger.flush();
  return 0;
}
