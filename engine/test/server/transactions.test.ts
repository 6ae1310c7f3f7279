// START TRANSACTION, COMMIT and ROLLBACK as Trino runs them over autocommit-only connectors (the
// memory connector's writes, like Trino's memory connector, are autocommit only): reads in a
// transaction, Trino's error names for a write in one, for a statement after a failure in one, for
// nesting and for ending none; and the protocol headers (Transaction-Id, Started-Transaction-Id,
// Clear-Transaction-Id) as Trino exchanges them with its clients.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { runStatement } from '../support/statement-http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('transactions', function () {
  this.timeout(60_000);

  describe('in the engine', () => {
    let engine: EngineHarness;
    const failure = async (sql: string) => {
      const e = await engine.failure(sql);
      return [e.errorName, e.rawMessage];
    };

    beforeEach(async () => {
      engine = new EngineHarness();
      await engine.run('CREATE TABLE t (x integer)', 'INSERT INTO t VALUES 1, 2');
      engine.session.transaction = {};
    });

    it('refuses START TRANSACTION from a client that does not send the Transaction-Id header, as Trino', async () => {
      delete engine.session.transaction;
      expect(await failure('START TRANSACTION')).to.deep.equal(['INCOMPATIBLE_CLIENT', 'Client does not support transactions']);
    });

    it('runs reads in a transaction and commits or rolls it back', async () => {
      const started = await engine.query('START TRANSACTION');
      expect(started.result.updateType).to.equal('START TRANSACTION');
      expect(started.result.sessionChanges.startedTransactionId).to.match(UUID);
      expect(engine.session.transaction?.id).to.equal(started.result.sessionChanges.startedTransactionId);
      expect(await engine.rows('SELECT sum(x) FROM t')).to.deep.equal([[3n]]);
      const committed = await engine.query('COMMIT');
      expect([committed.result.updateType, committed.result.sessionChanges.clearTransactionId]).to.deep.equal(['COMMIT', true]);
      expect(engine.session.transaction).to.deep.equal({});
      await engine.run('START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY');
      expect(await engine.rows('SELECT count(*) FROM t')).to.deep.equal([[2n]]);
      expect((await engine.query('ROLLBACK')).result.updateType).to.equal('ROLLBACK');
      expect(engine.executor.transactions.size).to.equal(0);
    });

    it('refuses writes in a transaction with AUTOCOMMIT_WRITE_CONFLICT (READ_ONLY_VIOLATION in a READ ONLY one); outside one they commit', async () => {
      await engine.run('START TRANSACTION');
      for (const write of [
        'INSERT INTO t VALUES 3',
        'CREATE TABLE u (y integer)',
        'DELETE FROM t',
        'DROP TABLE t',
        'CREATE SCHEMA memory.s2',
        'ALTER TABLE t ADD COLUMN y integer',
      ]) {
        expect(await failure(write), write).to.deep.equal([
          'AUTOCOMMIT_WRITE_CONFLICT',
          'Catalog only supports writes using autocommit: memory',
        ]);
        await engine.run('ROLLBACK', 'START TRANSACTION');
      }
      await engine.run('ROLLBACK', 'START TRANSACTION READ ONLY');
      expect(await failure('INSERT INTO t VALUES 3')).to.deep.equal([
        'READ_ONLY_VIOLATION',
        'Cannot execute write in a read-only transaction',
      ]);
      await engine.run('ROLLBACK');
      await engine.run('INSERT INTO t VALUES 3');
      expect(await engine.rows('SELECT count(*) FROM t')).to.deep.equal([[3n]]);
    });

    it('aborts a transaction at a failure: later statements are refused, COMMIT fails, ROLLBACK ends it', async () => {
      await engine.run('START TRANSACTION');
      const id = engine.session.transaction?.id as string;
      expect((await failure('SELECT 1 / 0'))[0]).to.equal('DIVISION_BY_ZERO');
      expect(await failure('SELECT 1')).to.deep.equal([
        'TRANSACTION_ALREADY_ABORTED',
        'Current transaction is aborted, commands ignored until end of transaction block',
      ]);
      expect(await failure('COMMIT')).to.deep.equal(['TRANSACTION_ALREADY_ABORTED', 'Current transaction has already been aborted']);
      // The failed COMMIT ended it (the server tells the client so): its id is unknown now.
      expect(await failure('SELECT 1')).to.deep.equal([
        'UNKNOWN_TRANSACTION',
        `Unknown transaction ID: ${id}. Possibly expired? Commands ignored until end of transaction block`,
      ]);
      engine.session.transaction = {};
      await engine.run('START TRANSACTION');
      expect((await failure('SELECT * FROM nosuch'))[0]).to.equal('TABLE_NOT_FOUND');
      await engine.run('ROLLBACK');
      expect(engine.executor.transactions.size).to.equal(0);
    });

    it("gives Trino's errors for nesting, for ending no transaction and for repeated modes", async () => {
      expect(await failure('COMMIT')).to.deep.equal(['NOT_IN_TRANSACTION', 'No transaction in progress']);
      expect(await failure('ROLLBACK')).to.deep.equal(['NOT_IN_TRANSACTION', 'No transaction in progress']);
      expect(await failure('START TRANSACTION READ ONLY, READ WRITE')).to.deep.equal([
        'SYNTAX_ERROR',
        'Multiple transaction read modes specified',
      ]);
      expect(await failure('START TRANSACTION ISOLATION LEVEL READ COMMITTED, ISOLATION LEVEL SERIALIZABLE')).to.deep.equal([
        'SYNTAX_ERROR',
        'Multiple transaction isolation levels specified',
      ]);
      await engine.run('START TRANSACTION');
      expect(await failure('START TRANSACTION')).to.deep.equal(['NOT_SUPPORTED', 'Nested transactions not supported']);
    });
  });

  describe('over the client protocol', () => {
    let server: ServerProcess;
    const TRINO = { 'X-Trino-User': 'tester', 'X-Trino-Catalog': 'memory', 'X-Trino-Schema': 'default' };
    const headerOf = (run: Awaited<ReturnType<typeof runStatement>>, name: string) =>
      run.exchanges[run.exchanges.length - 1]!.headers.get(name);

    before(async () => {
      server = await ServerProcess.start();
    });
    after(async () => {
      await server.stop();
    });

    it('starts a transaction with Started-Transaction-Id, runs in it by Transaction-Id and ends it with Clear-Transaction-Id', async () => {
      const base = server.uri;
      await runStatement(base, 'CREATE TABLE memory.default.h AS SELECT 1 AS x', TRINO);
      const start = await runStatement(base, 'START TRANSACTION', { ...TRINO, 'X-Trino-Transaction-Id': 'NONE' });
      expect(start.final.error).to.equal(undefined);
      expect(start.final.updateType).to.equal('START TRANSACTION');
      const id = headerOf(start, 'X-Trino-Started-Transaction-Id');
      expect(id).to.match(UUID);
      const inTransaction = { ...TRINO, 'X-Trino-Transaction-Id': id as string };
      expect((await runStatement(base, 'SELECT x FROM h', inTransaction)).rows).to.deep.equal([[1]]);
      const write = await runStatement(base, 'INSERT INTO h VALUES 2', inTransaction);
      expect(write.final.error).to.deep.include({
        errorName: 'AUTOCOMMIT_WRITE_CONFLICT',
        errorCode: 25,
        message: 'Catalog only supports writes using autocommit: memory',
      });
      const rollback = await runStatement(base, 'ROLLBACK', inTransaction);
      expect([rollback.final.error, rollback.final.updateType]).to.deep.equal([undefined, 'ROLLBACK']);
      expect(headerOf(rollback, 'X-Trino-Clear-Transaction-Id')).to.equal('true');
    });

    it('refuses START TRANSACTION without the header, and clears an unknown transaction that COMMIT names', async () => {
      const base = server.uri;
      const refused = await runStatement(base, 'START TRANSACTION', TRINO);
      expect(refused.final.error).to.deep.include({ errorName: 'INCOMPATIBLE_CLIENT', message: 'Client does not support transactions' });
      const unknown = '00000000-0000-0000-0000-000000000000';
      const commit = await runStatement(base, 'COMMIT', { ...TRINO, 'X-Trino-Transaction-Id': unknown });
      expect(commit.final.error).to.deep.include({ errorName: 'UNKNOWN_TRANSACTION' });
      expect(headerOf(commit, 'X-Trino-Clear-Transaction-Id')).to.equal('true');
      const select = await runStatement(base, 'SELECT 1', { ...TRINO, 'X-Trino-Transaction-Id': unknown });
      expect(select.final.error).to.deep.include({ errorName: 'UNKNOWN_TRANSACTION', errorCode: 20 });
    });
  });
});
