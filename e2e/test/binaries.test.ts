import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { envWithTools, expectedHelmVersion, expectedKubectlVersion } from '../src/binaries/tools.js';

describe('bundled binaries', () => {
  it("finds kubectl v1.32.3 on the tests' PATH", () => {
    const out = execFileSync('kubectl', ['version', '--client', '-o', 'json'], { env: envWithTools(), encoding: 'utf8' });
    expect(JSON.parse(out).clientVersion.gitVersion).to.equal(expectedKubectlVersion);
  });

  it("finds helm v3.17.2 on the tests' PATH", () => {
    const out = execFileSync('helm', ['version', '--template', '{{.Version}}'], { env: envWithTools(), encoding: 'utf8' });
    expect(out.trim()).to.equal(expectedHelmVersion);
  });
});
