// Metadata is loaded before analysis: a connector that answers its metadata calls later (as one
// over a metastore, a database or object storage does) serves queries, DDL and SHOW statements;
// names analysis meets that the statement's table references did not show are loaded when met; a
// connector's failure is the statement's error, at the position of the name that needed it.

import { expect } from 'chai';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { EngineError } from '../../src/errors/engine-error.js';
import type { TableMetadata } from '../../src/spi/connector.js';
import type { Session } from '../../src/spi/session.js';
import { StatementMetadata } from '../../src/sql/metadata/statement-metadata.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { EngineHarness } from '../support/engine-harness.js';

/** A memory catalog whose metadata answers come after a turn of the timers, counting the calls. */
class RemoteCatalog extends MemoryConnector {
  readonly calls: string[] = [];
  failing: string | undefined;

  private async remote<T>(call: string, answer: () => Promise<T>): Promise<T> {
    this.calls.push(call);
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (this.failing !== undefined && call.includes(this.failing))
      throw new EngineError('GENERIC_USER_ERROR', `Cannot reach the metastore for ${call}`);
    return answer();
  }

  override listSchemas(session: Session): Promise<string[]> {
    return this.remote('listSchemas', () => super.listSchemas(session));
  }

  override getTable(session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    return this.remote(`getTable ${schema}.${table}`, () => super.getTable(session, schema, table));
  }
}

describe('metadata loaded before analysis', () => {
  let h: EngineHarness;
  let remote: RemoteCatalog;

  beforeEach(async () => {
    h = new EngineHarness();
    remote = new RemoteCatalog('remote');
    h.catalogs.register('remote', remote);
    await h.run('CREATE TABLE remote.default.a (k integer, v varchar)', "INSERT INTO remote.default.a VALUES (1, 'x'), (2, 'y')");
    await h.run('CREATE TABLE remote.default.b (k integer, w double)', 'INSERT INTO remote.default.b VALUES (1, 0.5), (3, 1.5)');
  });

  it('answers queries, joins, subqueries and CTEs over a catalog whose metadata calls are asynchronous', async () => {
    const rows = await h.rows(
      'WITH c AS (SELECT k FROM remote.default.b) SELECT a.k, v, w, (SELECT count(*) FROM c) FROM remote.default.a a LEFT JOIN remote.default.b b ON a.k = b.k ORDER BY 1',
    );
    expect(rows).to.deep.equal([
      [1, 'x', 0.5, 2n],
      [2, 'y', null, 2n],
    ]);
    expect(await h.rows("SELECT table_name FROM remote.information_schema.tables WHERE table_schema = 'default' ORDER BY 1")).to.deep.equal(
      [['a'], ['b']],
    );
    expect(await h.rows('SHOW COLUMNS FROM remote.default.b')).to.deep.equal([
      ['k', 'integer', '', ''],
      ['w', 'double', '', ''],
    ]);
  });

  it('loads every table a statement names at once, before analysis, each once', async () => {
    remote.calls.length = 0;
    await h.rows('SELECT * FROM remote.default.a, remote.default.b, remote.default.a x');
    expect(remote.calls.filter((c) => c.startsWith('getTable')).sort()).to.deep.equal(['getTable default.a', 'getTable default.b']);
  });

  it('loads a name analysis meets that the statement did not show, and analyzes again', async () => {
    const statement = parseStatement('SELECT 1');
    const metadata = new StatementMetadata(h.catalogs, { ...h.session, catalog: 'remote', schema: 'default' });
    const name = {
      kind: 'QualifiedName' as const,
      parts: [{ kind: 'Identifier' as const, value: 'b', quoted: false, location: { line: 1, column: 1 } }],
      location: { line: 1, column: 1 },
    };
    let runs = 0;
    const columns = await metadata.analyze(statement, () => {
      runs++;
      return metadata.resolveTableOrFail(name).columns.map((c) => c.name);
    });
    expect(columns).to.deep.equal(['k', 'w']);
    expect(runs).to.equal(2);
  });

  it("reports a connector's failure as the statement's error at the name that needed it, and unknown names as before", async () => {
    remote.failing = 'default.b';
    const failure = await h.failure('SELECT 1 FROM remote.default.a, remote.default.b');
    expect(failure.message).to.equal('line 1:33: Cannot reach the metastore for getTable default.b');
    const missing = await h.failure('SELECT * FROM remote.default.nope');
    expect(missing.errorName).to.equal('TABLE_NOT_FOUND');
    expect(missing.message).to.equal("line 1:15: Table 'remote.default.nope' does not exist");
    expect((await h.failure('SELECT * FROM remote.nope.t')).message).to.equal("line 1:15: Schema 'nope' does not exist");
    expect((await h.failure('SELECT * FROM nope.s.t')).message).to.equal("line 1:15: Catalog 'nope' not found");
  });
});
