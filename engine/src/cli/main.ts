#!/usr/bin/env node
// The `engine` command: `engine server` runs a node, `engine sql` is the client shell, `engine node`
// drives a node's state.

import { ConfigError } from '../config/config-error.js';
import { CONFIG_SCHEMA } from '../config/config-schema.js';
import { engineVersion } from '../config/version.js';
import { UsageError } from './args.js';

const USAGE = `Usage: engine <command> [options]

Commands:
  server          run a node (engine server --help)
  cluster         run a coordinator and N workers on loopback (engine cluster --help)
  sql             run SQL against a server, or open the interactive shell (engine sql --help)
  node            read or set a node's state, or drain it (engine node --help)
  config-schema   print the JSON Schema of the server configuration
  version         print the version
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    // Loaded on demand: the client shell does not need the engine, nor the server the shell.
    case 'server':
      return (await import('./server-command.js')).serverCommand(args);
    case 'cluster':
      return (await import('./cluster-command.js')).clusterCommand(args);
    case 'sql':
      return (await import('./sql-command.js')).sqlCommand(args);
    case 'node':
      return (await import('./node-command.js')).nodeCommand(args);
    case 'config-schema':
      process.stdout.write(`${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
      return 0;
    case 'version':
    case '--version':
      process.stdout.write(`engine ${engineVersion()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      throw new UsageError(`engine: unknown command '${command}'\n${USAGE}`);
  }
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    // A stopped server exits at once, whatever timers or threads the engine still holds.
    if (argv[0] === 'server') process.exit(code);
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    }
  },
);
