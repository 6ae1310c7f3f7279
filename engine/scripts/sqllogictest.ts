// The sqllogictest runner.
//
//   node engine/dist/scripts/sqllogictest.js [--server http://127.0.0.1:PORT] [--report FILE]
//        [--gate <file-prefix-or-glob>=<percent>]... [--jobs N] [--timeout SECONDS] [--workers N] [files or dirs...]
//
// Without --server it starts `engine server` on a free port and stops it at the end; with --workers N,
// a coordinator and N worker processes instead, so that every query runs distributed. Without files
// it runs the whole corpus (../shared/sqllogictest beside the repository). The exit code is 1 only
// when a --gate fails (2 when the run could not happen at all).
//
// --timeout is a hard deadline per statement, kept here whatever the server does: the request is
// aborted at it, and a server that then does not answer GET /v1/info within seconds is killed and
// replaced (servers.ts); the statement and the rest of its file count as failed, and the report's
// "server hangs" section says where. The report also lists the slowest plans (the server's planning time).

import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateGates, fileLine, gateLine, parseGate, totalLine, writeReport, type Gate } from './sqllogictest/report.js';
import { runSqlLogicTestFiles } from './sqllogictest/runner.js';
import { eventLoopLines } from './sqllogictest/event-loop-figures.js';
import { sharedPath } from './shared-dir.js';
import { startCluster, startEngineServer } from './sqllogictest/server-process.js';
import { outsideServer, StartedServers, type SqlLogicTestServers } from './sqllogictest/servers.js';

/** The engine package: this file runs as engine/dist/scripts/sqllogictest.js. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_CORPUS = sharedPath('sqllogictest');
const DEFAULT_REPORT = resolve(PACKAGE_ROOT, 'test-reports/sqllogictest.txt');
const CLI_PATH = resolve(PACKAGE_ROOT, 'dist/src/cli/main.js');

interface Arguments {
  server?: string;
  report: string;
  gates: Gate[];
  jobs: number;
  timeoutMillis: number;
  workers: number;
  paths: string[];
}

function parseArguments(argv: readonly string[]): Arguments {
  const args: Arguments = { report: DEFAULT_REPORT, gates: [], jobs: 1, timeoutMillis: 120_000, workers: 0, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--server') args.server = value();
    else if (arg === '--report') args.report = resolve(value());
    else if (arg === '--gate') args.gates.push(parseGate(value()));
    else if (arg === '--jobs') args.jobs = positiveInteger(arg, value());
    else if (arg === '--timeout') args.timeoutMillis = positiveInteger(arg, value()) * 1000;
    else if (arg === '--workers') args.workers = positiveInteger(arg, value());
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else args.paths.push(arg);
  }
  return args;
}

function positiveInteger(option: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${option} needs a positive integer, got '${text}'`);
  return n;
}

/** The .test files named, directories expanded recursively, in name order. */
function testFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) {
        const child = join(path, entry);
        if (statSync(child).isDirectory() || entry.endsWith('.test')) visit(child);
      }
    } else {
      files.push(path);
    }
  };
  for (const p of paths.length === 0 ? [DEFAULT_CORPUS] : paths) visit(resolve(p));
  return files;
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  const files = testFiles(args.paths);
  if (files.length === 0) throw new Error('no .test files to run');

  // Servers of our own lead their own process groups: a hung one is killed whole and replaced.
  const servers: SqlLogicTestServers =
    args.server !== undefined
      ? outsideServer(args.server)
      : await StartedServers.start(async () =>
          args.workers > 0
            ? startCluster(CLI_PATH, args.workers, { processGroup: true })
            : [await startEngineServer({ cliPath: CLI_PATH, processGroup: true })],
        );
  process.once('SIGINT', () => void servers.stop().then(() => process.exit(130)));
  try {
    const summary = await runSqlLogicTestFiles(servers, files, {
      jobs: args.jobs,
      timeoutMillis: args.timeoutMillis,
      onFileDone: (result) => console.log(fileLine({ ...result, file: relative(process.cwd(), result.file) })),
    });
    const gates = evaluateGates(summary, args.gates);
    console.log(totalLine(summary));
    for (const gate of gates) console.log(gateLine(gate));
    const serverLines = await eventLoopLines(servers.urls());
    for (const line of serverLines) console.log(line);
    writeReport(args.report, summary, gates, serverLines);
    console.log(`report: ${args.report}`);
    return gates.every((g) => g.ok) ? 0 : 1;
  } finally {
    await servers.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`sqllogictest: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
