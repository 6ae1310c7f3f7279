// The configuration of TLS and client authentication: the `http.https` and `authentication` sections
// (Trino: http-server.https.* and http-server.authentication.*), their schema, flags and defaults,
// and the checks that tie them together (password or JWT authentication needs HTTPS).

import { ConfigError } from './config-error.js';
import { DURATION_SCHEMA, parseDuration } from './duration.js';
import type { Setting } from './settings.js';

export const AUTHENTICATION_TYPES = ['PASSWORD', 'JWT'] as const;
export type AuthenticationType = (typeof AUTHENTICATION_TYPES)[number];

export interface HttpsConfig {
  port: number;
  /** PEM: the server certificate, then any intermediate certificates of its chain. */
  certificateFile: string;
  /** PEM private key (PKCS #1 or #8), encrypted when keyPassphrase is set. */
  keyFile: string;
  keyPassphrase?: string;
  /** How often the files are checked for a change (a Kubernetes Secret swaps a symlink). */
  refreshPeriod: number;
}

export interface PasswordAuthenticationConfig {
  file: string;
  refreshPeriod: number;
  /** Successful checks remembered, so a client polling a query does not pay bcrypt every request; 0 disables. */
  cacheMaxSize: number;
  cacheTtl: number;
  userMappingPattern?: string;
}

export interface JwtAuthenticationConfig {
  /** A PEM public key file, an HMAC key file, or an http(s) JWKS URL. */
  keyFile: string;
  requiredIssuer?: string;
  requiredAudience?: string;
  principalField: string;
  userMappingPattern?: string;
}

export interface AuthenticationConfig {
  /** Empty: clients are not authenticated (the user header is trusted). */
  types: AuthenticationType[];
  allowInsecureOverHttp: boolean;
  password?: PasswordAuthenticationConfig;
  jwt?: JwtAuthenticationConfig;
}

const closed = <P extends Record<string, unknown>>(description: string, properties: P) =>
  ({ type: 'object', description, additionalProperties: false, properties }) as const;
const text = (description: string) => ({ type: 'string', minLength: 1, description }) as const;
const USER_MAPPING = text(
  'A regular expression over the authenticated name; its first capture group is the user, and a name it does not match is refused (Trino: user-mapping.pattern)',
);

export const HTTPS_SCHEMA = closed('HTTPS (Trino: http-server.https.*)', {
  enabled: { type: 'boolean', description: 'Serve HTTPS (default: false)' },
  port: { type: 'integer', minimum: 0, maximum: 65535, description: 'HTTPS port; 0 picks a free port (default: 8443)' },
  certificateFile: text('PEM file with the server certificate and its chain'),
  keyFile: text('PEM file with the private key'),
  keyPassphrase: text('Passphrase of an encrypted key (environment variable ENGINE_HTTP_HTTPS_KEY_PASSPHRASE)'),
  refreshPeriod: {
    ...DURATION_SCHEMA,
    description: 'How often the certificate and key files are checked and reloaded when changed, without a restart (default: 1m)',
  },
});

export const AUTHENTICATION_SCHEMA = closed('Client authentication (Trino: http-server.authentication.*)', {
  types: {
    type: 'array',
    items: { type: 'string', enum: [...AUTHENTICATION_TYPES] },
    uniqueItems: true,
    description:
      'Authentication types tried in order; the first that accepts the credentials names the principal (default: none, the user header is trusted)',
  },
  allowInsecureOverHttp: {
    type: 'boolean',
    description:
      'Keep the plain HTTP port open while authentication is on; requests on it are authenticated the same way (default: false, HTTP closed)',
  },
  password: closed('Password file authentication (Trino: file.*)', {
    file: text('htpasswd-style file: user:bcrypt ($2y$, cost >= 8) or user:iterations:salt:hash (PBKDF2)'),
    refreshPeriod: { ...DURATION_SCHEMA, description: 'How often the file is reloaded (default: 5s)' },
    cacheMaxSize: {
      type: 'integer',
      minimum: 0,
      description: 'Successful password checks remembered; 0 checks every request (default: 1000)',
    },
    cacheTtl: {
      ...DURATION_SCHEMA,
      description: 'How long a successful check is remembered (default: 1m; a change of the file forgets them all)',
    },
    userMappingPattern: USER_MAPPING,
  }),
  jwt: closed('JWT bearer authentication (Trino: http-server.authentication.jwt.*)', {
    keyFile: text('PEM public key file, HMAC key file, or http(s) URL of a JWKS'),
    requiredIssuer: text('The iss a token must have'),
    requiredAudience: text('An aud a token must have'),
    principalField: text('Claim naming the principal (default: sub)'),
    userMappingPattern: USER_MAPPING,
  }),
});

export const INTERNAL_CA_FILE_SCHEMA = text(
  "PEM file of the certificate authority other nodes' HTTPS certificates are checked against, on top of the system ones (Trino: internal-communication.https.truststore.path)",
);

export const AUTHENTICATION_SETTINGS: readonly Setting[] = [
  { path: ['http', 'https', 'enabled'], flag: 'https-enabled', kind: 'boolean' },
  { path: ['http', 'https', 'port'], flag: 'https-port', kind: 'integer' },
  { path: ['http', 'https', 'certificateFile'], flag: 'https-certificate-file', kind: 'string' },
  { path: ['http', 'https', 'keyFile'], flag: 'https-key-file', kind: 'string' },
  { path: ['http', 'https', 'keyPassphrase'], flag: 'https-key-passphrase', kind: 'string' },
  { path: ['http', 'https', 'refreshPeriod'], flag: 'https-refresh-period', kind: 'duration' },
  { path: ['internalCommunication', 'caFile'], flag: 'internal-communication-ca-file', kind: 'string' },
  { path: ['authentication', 'types'], flag: 'authentication-types', kind: 'list' },
  { path: ['authentication', 'allowInsecureOverHttp'], flag: 'authentication-allow-insecure-over-http', kind: 'boolean' },
  { path: ['authentication', 'password', 'file'], flag: 'password-file', kind: 'string' },
  { path: ['authentication', 'password', 'refreshPeriod'], flag: 'password-refresh-period', kind: 'duration' },
  { path: ['authentication', 'password', 'cacheMaxSize'], flag: 'password-cache-max-size', kind: 'integer' },
  { path: ['authentication', 'password', 'cacheTtl'], flag: 'password-cache-ttl', kind: 'duration' },
  { path: ['authentication', 'password', 'userMappingPattern'], flag: 'password-user-mapping-pattern', kind: 'string' },
  { path: ['authentication', 'jwt', 'keyFile'], flag: 'jwt-key-file', kind: 'string' },
  { path: ['authentication', 'jwt', 'requiredIssuer'], flag: 'jwt-required-issuer', kind: 'string' },
  { path: ['authentication', 'jwt', 'requiredAudience'], flag: 'jwt-required-audience', kind: 'string' },
  { path: ['authentication', 'jwt', 'principalField'], flag: 'jwt-principal-field', kind: 'string' },
  { path: ['authentication', 'jwt', 'userMappingPattern'], flag: 'jwt-user-mapping-pattern', kind: 'string' },
];

type RawObject = Record<string, unknown>;

const duration = (value: unknown, fallback: number): number =>
  value === undefined ? fallback : typeof value === 'number' ? value : parseDuration(value as string)!;

function invalid(problem: string): never {
  throw new ConfigError(`Invalid configuration:\n  ${problem}`);
}

/** `http.https` with its defaults; undefined unless enabled. */
export function resolveHttps(raw: RawObject | undefined): HttpsConfig | undefined {
  if (raw === undefined || raw.enabled !== true) return undefined;
  const certificateFile = raw.certificateFile as string | undefined;
  const keyFile = raw.keyFile as string | undefined;
  if (certificateFile === undefined || keyFile === undefined)
    invalid(
      "'http.https.enabled' needs 'http.https.certificateFile' and 'http.https.keyFile' (--https-certificate-file, --https-key-file)",
    );
  return {
    port: (raw.port as number | undefined) ?? 8443,
    certificateFile,
    keyFile,
    keyPassphrase: raw.keyPassphrase as string | undefined,
    refreshPeriod: duration(raw.refreshPeriod, 60_000),
  };
}

/** The `authentication` section with its defaults, checked against the HTTPS setting. */
export function resolveAuthentication(
  raw: RawObject | undefined,
  https: HttpsConfig | undefined,
  sharedSecret: string | undefined,
): AuthenticationConfig {
  const section = raw ?? {};
  const types = (section.types as AuthenticationType[] | undefined) ?? [];
  const allowInsecureOverHttp = (section.allowInsecureOverHttp as boolean | undefined) ?? false;
  const password = section.password as RawObject | undefined;
  const jwt = section.jwt as RawObject | undefined;
  if (types.length > 0 && https === undefined && !allowInsecureOverHttp) {
    invalid(
      `'authentication.types' ${types.join(', ')} sends credentials: it needs 'http.https.enabled' (or 'authentication.allowInsecureOverHttp' for a test setup)`,
    );
  }
  if (types.length > 0 && sharedSecret === undefined) {
    invalid(
      "'authentication.types' needs 'internalCommunication.sharedSecret' (ENGINE_SHARED_SECRET), as Trino does: requests between nodes and the node state endpoint authenticate with it",
    );
  }
  const config: AuthenticationConfig = { types, allowInsecureOverHttp };
  if (types.includes('PASSWORD')) {
    if (password?.file === undefined) invalid("authentication type PASSWORD needs 'authentication.password.file' (--password-file)");
    config.password = {
      file: password.file as string,
      refreshPeriod: duration(password.refreshPeriod, 5000),
      cacheMaxSize: (password.cacheMaxSize as number | undefined) ?? 1000,
      cacheTtl: duration(password.cacheTtl, 60_000),
      userMappingPattern: password.userMappingPattern as string | undefined,
    };
  }
  if (types.includes('JWT')) {
    if (jwt?.keyFile === undefined) invalid("authentication type JWT needs 'authentication.jwt.keyFile' (--jwt-key-file)");
    config.jwt = {
      keyFile: jwt.keyFile as string,
      requiredIssuer: jwt.requiredIssuer as string | undefined,
      requiredAudience: jwt.requiredAudience as string | undefined,
      principalField: (jwt.principalField as string | undefined) ?? 'sub',
      userMappingPattern: jwt.userMappingPattern as string | undefined,
    };
  }
  return config;
}
