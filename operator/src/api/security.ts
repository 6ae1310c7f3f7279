// spec.security: TLS from a Secret, client authentication (a password file from a Secret, JWT), and
// the access rules from a ConfigMap. Its defaults, what the schema cannot check, and where the
// operator mounts each file in the engine container (outside /etc/engine, the configuration's
// read-only volume, so no mount lies inside another).
import type { EngineClusterSpec, KeyRef, SecuritySpec } from './engine-cluster.js';

/** The files the TLS Secret must hold (cert-manager's names). */
export const tlsKeys = { certificate: 'tls.crt', key: 'tls.key', ca: 'ca.crt' } as const;

/** The operator's security volumes: their names, mount paths and the file each holds. */
export const securityMounts = {
  tls: { volume: 'engine-tls', path: '/etc/engine-tls' },
  password: { volume: 'engine-password', path: '/etc/engine-auth/password', file: 'password.db' },
  jwtKey: { volume: 'engine-jwt-key', path: '/etc/engine-auth/jwt', file: 'jwt-key' },
  rules: { volume: 'engine-rules', path: '/etc/engine-rules', file: 'rules.json' },
} as const;

export const defaultPasswordKey = 'password.db';
export const defaultRulesKey = 'rules.json';

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function keyRef(value: unknown, defaultKey: string): KeyRef | undefined {
  const ref = objectOr(value);
  if (typeof ref.name !== 'string') return undefined;
  return { name: ref.name, key: typeof ref.key === 'string' ? ref.key : defaultKey };
}

/** spec.security with the CRD's defaults (undefined when the spec has none). */
export function securityWithDefaults(raw: unknown): SecuritySpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  const security = objectOr(raw);
  const out: SecuritySpec = {};
  const tls = objectOr(security.tls);
  if (typeof tls.secretName === 'string')
    out.tls = { secretName: tls.secretName, nodeAddresses: tls.nodeAddresses === 'PodIP' ? 'PodIP' : 'PodDNS' };
  if (security.authentication !== undefined) {
    const auth = objectOr(security.authentication);
    out.authentication = {};
    const password = keyRef(auth.password, defaultPasswordKey);
    if (password) out.authentication.password = password;
    if (auth.jwt !== undefined) {
      const jwt = objectOr(auth.jwt);
      const keySecret = keyRef(jwt.keySecret, '');
      out.authentication.jwt = {
        ...(keySecret ? { keySecret } : {}),
        ...Object.fromEntries(
          (['jwksUrl', 'requiredIssuer', 'requiredAudience', 'principalField'] as const)
            .filter((k) => typeof jwt[k] === 'string')
            .map((k) => [k, jwt[k] as string]),
        ),
      };
    }
  }
  const access = objectOr(security.accessControl);
  const rules = keyRef(access.rulesConfigMap, defaultRulesKey);
  if (rules)
    out.accessControl = {
      rulesConfigMap: rules,
      ...(typeof access.refreshPeriod === 'string' ? { refreshPeriod: access.refreshPeriod } : {}),
    };
  return out;
}

/** The authentication types the engine is given, in the order it tries them. */
export function authenticationTypes(spec: EngineClusterSpec): string[] {
  const auth = spec.security?.authentication;
  return [...(auth?.password ? ['PASSWORD'] : []), ...(auth?.jwt ? ['JWT'] : [])];
}

/** What is wrong with spec.security that the schema let through; empty when nothing is. */
export function securityProblems(spec: EngineClusterSpec): string[] {
  const security = spec.security;
  if (!security) return [];
  const problems: string[] = [];
  const auth = security.authentication;
  if (auth) {
    if (!auth.password && !auth.jwt) problems.push('spec.security.authentication names no way to authenticate: give password, jwt or both');
    if (!security.tls) problems.push('spec.security.authentication needs spec.security.tls: the engine takes credentials only over HTTPS');
    const jwt = auth.jwt;
    if (jwt && (jwt.keySecret === undefined) === (jwt.jwksUrl === undefined))
      problems.push('spec.security.authentication.jwt: give exactly one of keySecret (a key file in a Secret) and jwksUrl');
    if (jwt?.keySecret && jwt.keySecret.key === '')
      problems.push("spec.security.authentication.jwt.keySecret: name the Secret's key that holds the key file");
    if (jwt?.jwksUrl !== undefined && !/^https?:\/\//.test(jwt.jwksUrl))
      problems.push(`spec.security.authentication.jwt.jwksUrl: ${JSON.stringify(jwt.jwksUrl)} is not an http(s) URL`);
  }
  return problems;
}

/** A key of a Secret or ConfigMap the pods need, and what needs it (for messages). */
export interface RequiredKey {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  key: string;
  what: string;
}

/** The Secret and ConfigMap keys spec.security makes the pods read. */
export function securityRequiredKeys(spec: EngineClusterSpec): RequiredKey[] {
  const security = spec.security;
  const required: RequiredKey[] = [];
  if (security?.tls)
    for (const key of Object.values(tlsKeys))
      required.push({ kind: 'Secret', name: security.tls.secretName, key, what: 'spec.security.tls' });
  const password = security?.authentication?.password;
  if (password) required.push({ kind: 'Secret', ...password, what: 'spec.security.authentication.password' });
  const jwtKey = security?.authentication?.jwt?.keySecret;
  if (jwtKey) required.push({ kind: 'Secret', ...jwtKey, what: 'spec.security.authentication.jwt.keySecret' });
  const rules = security?.accessControl?.rulesConfigMap;
  if (rules) required.push({ kind: 'ConfigMap', ...rules, what: 'spec.security.accessControl.rulesConfigMap' });
  return required;
}
