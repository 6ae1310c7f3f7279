// The CLI's credentials and TLS trust: --user with --password (the password from ENGINE_PASSWORD or
// TRINO_PASSWORD, never from the command line, where other users of the machine could read it),
// --access-token (a JWT), --ca-file and --insecure. Credentials go only over https://, as Trino's
// CLI requires.

import { ConfigError } from '../../config/config-error.js';
import { trustCertificateAuthority } from '../../security/authentication/internal-tls.js';
import { stringOption, UsageError, type OptionValues } from '../args.js';
import type { ClientSession } from './client-session.js';

const PASSWORD_VARIABLES = ['ENGINE_PASSWORD', 'TRINO_PASSWORD'] as const;

/** The Authorization header the options ask for, if any. */
export function clientAuthorization(values: OptionValues, session: ClientSession, env: NodeJS.ProcessEnv): string | undefined {
  const token = stringOption(values, 'access-token');
  if (values.password === true && token !== undefined)
    throw new UsageError('engine sql: use either --password or --access-token, not both');
  if (values.password !== true && token === undefined) return undefined;
  if (!session.server.startsWith('https://'))
    throw new UsageError(`engine sql: credentials are only sent over HTTPS: use an https:// --server (got ${session.server})`);
  if (token !== undefined) return `Bearer ${token}`;
  const password = PASSWORD_VARIABLES.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  if (password === undefined)
    throw new UsageError(
      `engine sql: --password reads the password from the environment variable ${PASSWORD_VARIABLES.join(' or ')}, which is not set`,
    );
  return `Basic ${Buffer.from(`${session.user}:${password}`, 'utf8').toString('base64')}`;
}

export function configureClientTls(command: string, caFile: string | undefined, insecure: boolean, checkServerName = true): void {
  if (caFile === undefined && !insecure && checkServerName) return;
  try {
    trustCertificateAuthority(caFile, { setting: '--ca-file', rejectUnauthorized: !insecure, checkServerName });
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(`engine ${command}: ${e.message}`);
    throw e;
  }
}
