// `engine sql`: runs --execute or --file statements against a server, or statements piped into it
// (batch: --output-format, CSV by default), or opens the interactive shell on a terminal
// (--output-format-interactive, ALIGNED by default), as Trino's CLI does.

import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { engineVersion } from '../config/version.js';
import { parseCommandLine, listOption, stringOption, UsageError } from './args.js';
import type { ClientSession } from './client/client-session.js';
import { ClientError } from '../internode/client-error.js';
import { OUTPUT_FORMATS, createPrinter, type OutputFormat } from './output/printer.js';
import { OutputSink } from './output/sink.js';
import { interruptStatement, runStatement, type PrinterFactory, type StatementRun } from './run-statement.js';
import { runShell } from './shell.js';
import { splitStatements, isOnlyComments } from './statement-splitter.js';
import { clientAuthorization, configureClientTls } from './client/client-credentials.js';

export const SQL_USAGE = `Usage: engine sql [options]

Runs SQL against an Engine (or Trino) server. Without --execute or --file it opens an interactive
shell on a terminal, or runs the statements piped into it; statements end with ';'.

Options:
  --server URL          server address (default: http://localhost:8080)
  --catalog NAME        default catalog
  --schema NAME         default schema
  --user NAME           user to run as (default: the current OS user)
  --password            authenticate as --user with the password in the environment
                        variable ENGINE_PASSWORD (or TRINO_PASSWORD); needs https://
  --access-token TOKEN  authenticate with this JWT (a bearer token); needs https://
  --ca-file FILE        PEM certificate authority to check the server's certificate with
  --insecure            do not check the server's certificate (testing only)
  --source NAME         source name sent with queries (default: engine-cli)
  --session NAME=VALUE  session property (repeatable)
  --time-zone ZONE      session time zone (default: this machine's)
  --execute SQL         run these statements and exit
  --file FILE           run the statements in FILE and exit ('-' reads standard input)
  --output-format FMT   output format of --execute, --file and piped statements (default: CSV)
  --output-format-interactive FMT
                        output format of the interactive shell (default: ALIGNED)
  --help                show this help

Output formats, as Trino's CLI has them: ${OUTPUT_FORMATS.slice(0, 6).join(', ')},
${OUTPUT_FORMATS.slice(6).join(', ')}.
AUTO is ALIGNED, or VERTICAL when ALIGNED is wider than the terminal.
`;

const OPTIONS = {
  server: { type: 'string' },
  catalog: { type: 'string' },
  schema: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'boolean' },
  'access-token': { type: 'string' },
  'ca-file': { type: 'string' },
  insecure: { type: 'boolean' },
  source: { type: 'string' },
  session: { type: 'string', multiple: true },
  'time-zone': { type: 'string' },
  execute: { type: 'string' },
  file: { type: 'string' },
  'output-format': { type: 'string' },
  'output-format-interactive': { type: 'string' },
  help: { type: 'boolean' },
} as const;

export async function sqlCommand(args: readonly string[]): Promise<number> {
  const values = parseCommandLine('sql', args, OPTIONS);
  if (values.help) {
    process.stdout.write(SQL_USAGE);
    return 0;
  }
  const execute = stringOption(values, 'execute');
  const file = stringOption(values, 'file');
  if (execute !== undefined && file !== undefined) throw new UsageError('engine sql: use either --execute or --file, not both');
  const batchFormat = outputFormat('output-format', stringOption(values, 'output-format'), 'CSV');
  const interactiveFormat = outputFormat('output-format-interactive', stringOption(values, 'output-format-interactive'), 'ALIGNED');
  const session = initialSession(values);
  session.authorization = clientAuthorization(values, session, process.env);
  configureClientTls('sql', stringOption(values, 'ca-file'), values.insecure === true);
  const userAgent = `engine-cli/${engineVersion()}`;
  if (execute === undefined && file === undefined) {
    return runShell(session, printerFactory(process.stdin.isTTY === true ? interactiveFormat : batchFormat), userAgent);
  }
  const text = execute ?? readStatementsFile(file!);
  return runBatch(text, session, printerFactory(batchFormat), userAgent);
}

/** Printers of one format on standard output; AUTO measures the terminal as it is when each result starts. */
function printerFactory(format: OutputFormat): PrinterFactory {
  const sink = new OutputSink(process.stdout);
  return (columns) => createPrinter(format, columns, sink, process.stdout.isTTY ? process.stdout.columns : Infinity);
}

async function runBatch(text: string, initial: ClientSession, printerFor: PrinterFactory, userAgent: string): Promise<number> {
  const { complete, remainder } = splitStatements(text);
  const statements = remainder !== '' && !isOnlyComments(remainder) ? [...complete, remainder] : complete;
  const run: StatementRun = {};
  const onInterrupt = () => {
    if (!interruptStatement(run)) process.exit(130);
  };
  process.on('SIGINT', onInterrupt);
  let session = initial;
  try {
    for (const sql of statements) {
      const outcome = await runStatement(sql, session, printerFor, userAgent, run);
      if (!outcome.ok) return 1;
      session = outcome.session;
    }
    return 0;
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    process.stderr.write(`Error running command: ${e.message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

function outputFormat(option: string, value: string | undefined, fallback: OutputFormat): OutputFormat {
  if (value === undefined) return fallback;
  const upper = value.toUpperCase();
  if (!(OUTPUT_FORMATS as readonly string[]).includes(upper)) {
    throw new UsageError(`engine sql: unknown --${option} '${value}'; expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return upper as OutputFormat;
}

function initialSession(values: ReturnType<typeof parseCommandLine>): ClientSession {
  const properties = new Map<string, string>();
  for (const pair of listOption(values, 'session')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`engine sql: --session expects NAME=VALUE, got '${pair}'`);
    properties.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return {
    server: serverUrl(stringOption(values, 'server') ?? 'http://localhost:8080'),
    // With a token and no --user, the server takes the token's principal as the user.
    user: stringOption(values, 'user') ?? (stringOption(values, 'access-token') !== undefined ? '' : userInfo().username),
    source: stringOption(values, 'source') ?? 'engine-cli',
    catalog: stringOption(values, 'catalog'),
    schema: stringOption(values, 'schema'),
    timeZone: stringOption(values, 'time-zone') ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    properties,
    preparedStatements: new Map(),
  };
}

/** Accepts host:port or a full URL; drops a trailing slash. */
function serverUrl(text: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `http://${text}`;
  try {
    const url = new URL(withScheme);
    return url.origin;
  } catch {
    throw new UsageError(`engine sql: --server '${text}' is not a valid address`);
  }
}

function readStatementsFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`engine sql: cannot read --file ${file}: ${(e as Error).message}`);
  }
}
