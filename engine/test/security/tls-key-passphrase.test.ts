// A wrong passphrase for an encrypted key is reported as such whatever OpenSSL's decoder says: most
// wrong passphrases fail the padding check ("bad decrypt"), but about one in 200 decrypts to garbage
// that pads correctly and fails later in the decoder ("unsupported"). CI met the second kind once.

import { expect } from 'chai';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { createLogger } from '../../src/log/logger.js';
import { ReloadingCertificate } from '../../src/security/authentication/tls-certificate.js';
import { makeTlsFiles, type TlsFiles } from '../support/tls-fixtures.js';

function encryptedKey(passphrase: string): string {
  return generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

/** OpenSSL's own error for this key under the wrong passphrase. */
function decoderError(key: string, passphrase: string): string {
  try {
    createPrivateKey({ key, passphrase });
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('TLS key passphrase', () => {
  let tls: TlsFiles;
  before(() => {
    tls = makeTlsFiles();
  });
  after(() => tls.remove());

  function load(key: string, keyPassphrase: string): string {
    const keyFile = join(tls.dir, 'other-encrypted.key');
    writeFileSync(keyFile, key);
    try {
      new ReloadingCertificate(
        { port: 0, certificateFile: tls.chainFile, keyFile, keyPassphrase, refreshPeriod: 60_000 },
        createLogger('silent'),
      );
      return 'loaded';
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError);
      return (e as Error).message;
    }
  }

  it('says the passphrase is wrong when the decoder, not the padding check, fails', () => {
    let key = '';
    for (let attempt = 0; attempt < 5_000 && key === ''; attempt++) {
      const candidate = encryptedKey('right');
      if (!/bad decrypt/i.test(decoderError(candidate, 'wrong'))) key = candidate;
    }
    expect(key, 'no key whose wrong passphrase passes the padding check in 5,000 tries').to.not.equal('');
    expect(decoderError(key, 'wrong')).to.not.match(/bad decrypt/i);
    expect(load(key, 'wrong')).to.include('the key passphrase (http.https.keyPassphrase) is wrong');
  });

  it('says the passphrase is wrong when the padding check fails', () => {
    let key = encryptedKey('right');
    while (!/bad decrypt/i.test(decoderError(key, 'wrong'))) key = encryptedKey('right');
    expect(load(key, 'wrong')).to.include('the key passphrase (http.https.keyPassphrase) is wrong');
  });

  it('gets past the passphrase with the right one, then finds an EC key is not the RSA certificate’s', () => {
    expect(load(encryptedKey('right'), 'right')).to.include('the key does not belong to the certificate');
  });
});
