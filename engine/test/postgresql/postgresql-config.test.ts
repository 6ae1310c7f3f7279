// The catalog properties of the postgresql connector: Trino's names, both URL spellings, and a
// clear refusal of anything else (the server does not start with it).

import { expect } from 'chai';
import { ConfigError } from '../../src/config/config-error.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';

describe('postgresql connector: catalog properties', () => {
  it('reads jdbc:postgresql:// and postgresql:// URLs, credentials and settings', () => {
    const jdbc = postgresConfig('pg', {
      'connection-url': 'jdbc:postgresql://db:5433/shop',
      'connection-user': 'engine',
      'connection-password': 's3cret',
    });
    expect(jdbc).to.deep.include({
      host: 'db',
      port: 5433,
      database: 'shop',
      user: 'engine',
      password: 's3cret',
      unsupportedTypeHandling: 'IGNORE',
      splitCount: 1,
      maxConnections: 10,
    });
    const plain = postgresConfig('pg', {
      'connection-url': 'postgresql://u%40x:p%3Aw@[::1]/my%20db?',
      'unsupported-type-handling': 'convert_to_varchar',
      'postgresql.split-count': 8,
      'aggregation-pushdown.enabled': 'false',
    });
    expect(plain).to.deep.include({
      host: '::1',
      port: 5432,
      database: 'my db',
      user: 'u@x',
      password: 'p:w',
      unsupportedTypeHandling: 'CONVERT_TO_VARCHAR',
      splitCount: 8,
      aggregationPushdown: false,
    });
    expect(postgresConfig('pg', { 'connection-url': 'jdbc:postgresql://h/d?user=a&password=b' })).to.deep.include({
      user: 'a',
      password: 'b',
    });
  });

  const refusals: [Record<string, string | number>, RegExp][] = [
    [{}, /Catalog 'pg': connection-url is required/],
    [{ 'connection-url': 'jdbc:mysql://h/d' }, /must start with jdbc:postgresql:\/\/ or postgresql:\/\//],
    [{ 'connection-url': 'postgresql://h' }, /must name a host and a database/],
    [{ 'connection-url': 'postgresql://h/d?sslmode=require' }, /parameters other than user and password are not supported: sslmode/],
    [{ 'connection-url': 'postgresql://h/d', 'connection-usr': 'x' }, /unknown postgresql connector properties: connection-usr/],
    [{ 'connection-url': 'postgresql://h/d', 'postgresql.split-count': 0 }, /postgresql.split-count must be a positive integer, got '0'/],
    [
      { 'connection-url': 'postgresql://h/d', 'unsupported-type-handling': 'FAIL' },
      /unsupported-type-handling must be IGNORE or CONVERT_TO_VARCHAR/,
    ],
    [{ 'connection-url': 'postgresql://h/d', 'topn-pushdown.enabled': 'yes' }, /topn-pushdown.enabled must be true or false/],
  ];
  for (const [properties, message] of refusals) {
    it(`refuses ${JSON.stringify(properties)}`, () => {
      expect(() => postgresConfig('pg', properties)).to.throw(ConfigError, message);
    });
  }
});
