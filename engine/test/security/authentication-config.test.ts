// The configuration of issue 20 as written there (YAML), with flags and environment variables over
// it, and the combinations the server refuses to start with.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/config-loader.js';

const ISSUE_EXAMPLE = `
http:
  port: 8080
  https:
    enabled: true
    port: 8443
    certificateFile: /etc/engine/tls/tls.crt
    keyFile: /etc/engine/tls/tls.key
authentication:
  types: [PASSWORD, JWT]
  allowInsecureOverHttp: false
  password:
    file: /etc/engine/password.db
    refreshPeriod: 5s
  jwt:
    keyFile: /etc/engine/jwt.pem
    requiredIssuer: https://issuer.example.com
    requiredAudience: engine
    principalField: sub
internalCommunication:
  sharedSecret: a secret
  caFile: /etc/engine/tls/ca.crt
`;

describe('authentication configuration', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-auth-config-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (text: string) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(path, text);
    return path;
  };
  const refusal = (load: () => unknown): string => {
    try {
      load();
    } catch (e) {
      if (e instanceof ConfigError) return e.message;
      throw e;
    }
    throw new Error('accepted');
  };

  it("reads the issue's example, with defaults filled in", () => {
    const config = loadConfig({ file: file(ISSUE_EXAMPLE) });
    expect(config.http.https).to.deep.equal({
      port: 8443,
      certificateFile: '/etc/engine/tls/tls.crt',
      keyFile: '/etc/engine/tls/tls.key',
      keyPassphrase: undefined,
      refreshPeriod: 60_000,
    });
    expect(config.authentication).to.deep.equal({
      types: ['PASSWORD', 'JWT'],
      allowInsecureOverHttp: false,
      password: {
        file: '/etc/engine/password.db',
        refreshPeriod: 5000,
        cacheMaxSize: 1000,
        cacheTtl: 60_000,
        userMappingPattern: undefined,
      },
      jwt: {
        keyFile: '/etc/engine/jwt.pem',
        requiredIssuer: 'https://issuer.example.com',
        requiredAudience: 'engine',
        principalField: 'sub',
        userMappingPattern: undefined,
      },
    });
    expect(config.internalCommunication.caFile).to.equal('/etc/engine/tls/ca.crt');
  });

  it('takes environment variables and flags over the file', () => {
    const config = loadConfig({
      file: file(ISSUE_EXAMPLE),
      env: { ENGINE_AUTHENTICATION_TYPES: 'JWT', ENGINE_HTTP_HTTPS_KEY_PASSPHRASE: 'from the environment' },
      flags: { 'https-port': '9443', 'jwt-principal-field': 'email' },
    });
    expect(config.authentication.types).to.deep.equal(['JWT']);
    expect(config.authentication.password).to.equal(undefined);
    expect(config.authentication.jwt?.principalField).to.equal('email');
    expect(config.http.https?.port).to.equal(9443);
    expect(config.http.https?.keyPassphrase).to.equal('from the environment');
  });

  it('refuses an unknown type, a type without its settings, authentication without HTTPS or without the shared secret', () => {
    expect(refusal(() => loadConfig({ file: file(ISSUE_EXAMPLE), flags: { 'authentication-types': 'KERBEROS' } }))).to.include(
      "'authentication.types[0]' must be one of 'PASSWORD', 'JWT'",
    );
    expect(
      refusal(() =>
        loadConfig({
          env: { ENGINE_SHARED_SECRET: 's' },
          flags: { 'authentication-types': 'PASSWORD', 'authentication-allow-insecure-over-http': 'true' },
        }),
      ),
    ).to.include("authentication type PASSWORD needs 'authentication.password.file'");
    expect(
      refusal(() => loadConfig({ env: { ENGINE_SHARED_SECRET: 's' }, flags: { 'authentication-types': 'JWT', 'jwt-key-file': '/k' } })),
    ).to.include("it needs 'http.https.enabled'");
    expect(
      refusal(() =>
        loadConfig({ flags: { 'authentication-types': 'JWT', 'jwt-key-file': '/k', 'authentication-allow-insecure-over-http': 'true' } }),
      ),
    ).to.include("needs 'internalCommunication.sharedSecret'");
    expect(refusal(() => loadConfig({ file: file('http:\n  https:\n    enabled: true\n    certFile: x\n') }))).to.include(
      "unknown key 'http.https.certFile'",
    );
  });
});
