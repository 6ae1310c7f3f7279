// spec.security in the engine pods: the TLS Secret, the password file, the JWT key and the rules
// file mounted read-only, and the engine settings naming them, as environment variables (so that
// `engine node drain --local` in the preStop hook reads the same HTTPS settings and CA as the server).
// Every role gets the same settings: workers authenticate clients too, and all nodes speak HTTPS.
import type { V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { engineHttpsPort } from '../api/names.js';
import { authenticationTypes, securityMounts, tlsKeys } from '../api/security.js';

const readOnly = 0o440;

function env(name: string, value: string): V1EnvVar {
  return { name, value };
}

export function securityEnv(cluster: EngineCluster): V1EnvVar[] {
  const security = cluster.spec.security;
  if (!security) return [];
  const vars: V1EnvVar[] = [];
  if (security.tls) {
    const dir = securityMounts.tls.path;
    vars.push(
      env('ENGINE_HTTP_HTTPS_ENABLED', 'true'),
      env('ENGINE_HTTP_HTTPS_PORT', String(engineHttpsPort)),
      env('ENGINE_HTTP_HTTPS_CERTIFICATE_FILE', `${dir}/${tlsKeys.certificate}`),
      env('ENGINE_HTTP_HTTPS_KEY_FILE', `${dir}/${tlsKeys.key}`),
      env('ENGINE_INTERNAL_COMMUNICATION_CA_FILE', `${dir}/${tlsKeys.ca}`),
    );
  }
  const auth = security.authentication;
  const types = authenticationTypes(cluster.spec);
  if (types.length) vars.push(env('ENGINE_AUTHENTICATION_TYPES', types.join(',')));
  if (auth?.password)
    vars.push(env('ENGINE_AUTHENTICATION_PASSWORD_FILE', `${securityMounts.password.path}/${securityMounts.password.file}`));
  const jwt = auth?.jwt;
  if (jwt) {
    vars.push(
      env(
        'ENGINE_AUTHENTICATION_JWT_KEY_FILE',
        jwt.keySecret ? `${securityMounts.jwtKey.path}/${securityMounts.jwtKey.file}` : jwt.jwksUrl!,
      ),
    );
    if (jwt.requiredIssuer !== undefined) vars.push(env('ENGINE_AUTHENTICATION_JWT_REQUIRED_ISSUER', jwt.requiredIssuer));
    if (jwt.requiredAudience !== undefined) vars.push(env('ENGINE_AUTHENTICATION_JWT_REQUIRED_AUDIENCE', jwt.requiredAudience));
    if (jwt.principalField !== undefined) vars.push(env('ENGINE_AUTHENTICATION_JWT_PRINCIPAL_FIELD', jwt.principalField));
  }
  const access = security.accessControl;
  if (access) {
    vars.push(env('ENGINE_SECURITY_RULES_FILE', `${securityMounts.rules.path}/${securityMounts.rules.file}`));
    if (access.refreshPeriod !== undefined) vars.push(env('ENGINE_SECURITY_RULES_REFRESH_PERIOD', access.refreshPeriod));
  }
  return vars;
}

/**
 * The volumes and mounts of spec.security. Whole Secrets and ConfigMaps are mounted as directories
 * (never subPath), so that the kubelet's updates reach the engine, which reads the files again.
 */
export function securityVolumes(cluster: EngineCluster): { volumes: V1Volume[]; volumeMounts: V1VolumeMount[] } {
  const security = cluster.spec.security;
  const volumes: V1Volume[] = [];
  const mount = (m: { volume: string; path: string }) => ({ name: m.volume, mountPath: m.path, readOnly: true });
  if (security?.tls)
    volumes.push({ name: securityMounts.tls.volume, secret: { secretName: security.tls.secretName, defaultMode: readOnly } });
  const password = security?.authentication?.password;
  if (password)
    volumes.push({
      name: securityMounts.password.volume,
      secret: { secretName: password.name, defaultMode: readOnly, items: [{ key: password.key, path: securityMounts.password.file }] },
    });
  const jwtKey = security?.authentication?.jwt?.keySecret;
  if (jwtKey)
    volumes.push({
      name: securityMounts.jwtKey.volume,
      secret: { secretName: jwtKey.name, defaultMode: readOnly, items: [{ key: jwtKey.key, path: securityMounts.jwtKey.file }] },
    });
  const rules = security?.accessControl?.rulesConfigMap;
  if (rules)
    volumes.push({
      name: securityMounts.rules.volume,
      configMap: { name: rules.name, items: [{ key: rules.key, path: securityMounts.rules.file }] },
    });
  const byVolume = new Map<string, { volume: string; path: string }>(Object.values(securityMounts).map((m) => [m.volume, m]));
  return { volumes, volumeMounts: volumes.map((v) => mount(byVolume.get(v.name)!)) };
}
