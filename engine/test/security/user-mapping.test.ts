// user-mapping.pattern as Trino documents it (security/user-mapping.md): the first capture group of a
// regex matching the whole name is the user; a name it does not match is refused.

import { expect } from 'chai';
import { ConfigError } from '../../src/config/config-error.js';
import { userMapping } from '../../src/security/authentication/user-mapping.js';

describe('user mapping', () => {
  it("maps alice@example.com to alice with Trino's documented pattern (.*)(@.*)", () => {
    const map = userMapping('(.*)(@.*)', 'authentication.password.userMappingPattern');
    expect(map('alice@example.com')).to.equal('alice');
    expect(map('alice')).to.equal(undefined);
  });

  it('matches the whole name, and keeps names unchanged without a pattern', () => {
    expect(userMapping('[a-z]+', 'x')('alice')).to.equal('alice');
    expect(userMapping('[a-z]+', 'x')('alice1')).to.equal(undefined);
    expect(userMapping(undefined, 'x')('CN=Alice,O=Acme')).to.equal('CN=Alice,O=Acme');
  });

  it('refuses a pattern that is not a regular expression, naming the setting', () => {
    expect(() => userMapping('(unclosed', 'authentication.jwt.userMappingPattern')).to.throw(
      ConfigError,
      "'authentication.jwt.userMappingPattern' is not a regular expression",
    );
  });
});
