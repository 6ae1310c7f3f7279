// The password file's hashes against independent oracles: the PBKDF2 example of Trino's
// password-file documentation (password "password"), bcrypt hashes made by bcryptjs in the $2y$,
// $2a$ and $2b$ spellings, and the refusals Trino's file authenticator makes (cost, iterations, format).

import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { parsePasswordHash, passwordMatches, type PasswordHash } from '../../src/security/authentication/password-hash.js';

/** From Trino's docs/src/main/sphinx/security/password-file.md. */
const TRINO_DOC_PBKDF2 =
  '1000:5b4240333032306164:f38d165fce8ce42f59d366139ef5d9e1ca1247f0e06e503ee1a611dd9ec40876bb5edb8409f5abe5504aab6628e70cfb3d3a18e99d70357d295002c3d0a308a0';

function parsed(text: string): PasswordHash {
  const hash = parsePasswordHash(text);
  if (typeof hash === 'string') throw new Error(hash);
  return hash;
}

describe('password file hashes', () => {
  it("checks Trino's documented PBKDF2 example", async () => {
    expect(await passwordMatches('password', parsed(TRINO_DOC_PBKDF2))).to.equal(true);
    expect(await passwordMatches('Password', parsed(TRINO_DOC_PBKDF2))).to.equal(false);
  });

  it('checks bcrypt hashes in the $2y$, $2a$ and $2b$ spellings', async () => {
    const hash = bcrypt.hashSync('open sesame', 8);
    for (const version of ['$2y$', '$2a$', '$2b$']) {
      const spelled = `${version}${hash.slice(4)}`;
      expect(await passwordMatches('open sesame', parsed(spelled)), version).to.equal(true);
      expect(await passwordMatches('open sesame!', parsed(spelled)), version).to.equal(false);
    }
  });

  it('refuses what Trino refuses, saying why without the hash', () => {
    expect(parsePasswordHash(bcrypt.hashSync('x', 7))).to.equal('bcrypt cost 7 is below the minimum of 8');
    expect(parsePasswordHash('$2y$10$tooshort')).to.match(/^invalid bcrypt hash/);
    expect(parsePasswordHash('999:abcd:abcd')).to.equal('PBKDF2 iterations 999 are below the minimum of 1000');
    expect(parsePasswordHash('1000:xyz:abcd')).to.match(/^invalid PBKDF2 hash/);
    expect(parsePasswordHash('plaintext')).to.match(/^the hashing algorithm cannot be determined/);
  });
});
