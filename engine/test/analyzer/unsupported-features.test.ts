// Every statement, relation and expression Trino has that the engine does not run fails with
// NOT_SUPPORTED naming it, at its line:column (before: "mismatched input ..." syntax errors).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

/** [SQL, the message with its position] */
const STATEMENTS: [string, string][] = [
  ['CREATE MATERIALIZED VIEW m AS SELECT 1', 'line 1:1: CREATE MATERIALIZED VIEW is not supported'],
  ['DROP MATERIALIZED VIEW m', 'line 1:1: DROP MATERIALIZED VIEW is not supported'],
  ['REFRESH MATERIALIZED VIEW m', 'line 1:1: REFRESH MATERIALIZED VIEW is not supported'],
  ['ALTER SCHEMA s RENAME TO r', 'line 1:1: ALTER SCHEMA ... RENAME TO is not supported'],
  ['ANALYZE t', 'line 1:1: ANALYZE is not supported'],
  ['SHOW GRANTS ON TABLE t', 'line 1:1: SHOW GRANTS is not supported'],
  ['SHOW ROLES', 'line 1:1: SHOW ROLES is not supported'],
  ['SHOW CREATE SCHEMA s', 'line 1:1: SHOW CREATE SCHEMA is not supported'],
  ['ALTER MATERIALIZED VIEW m SET PROPERTIES x = 1', 'line 1:1: ALTER MATERIALIZED VIEW ... SET PROPERTIES is not supported'],
  ['SHOW ROLE GRANTS', 'line 1:1: SHOW ROLE GRANTS is not supported'],
  ["CALL system.flush_cache(schema => 's')", 'line 1:1: CALL is not supported'],
  ['CREATE ROLE admin', 'line 1:1: CREATE ROLE is not supported'],
  ['DROP ROLE admin', 'line 1:1: DROP ROLE is not supported'],
  ['GRANT SELECT ON t TO alice', 'line 1:1: GRANT is not supported'],
  ['GRANT admin TO USER alice', 'line 1:1: GRANT is not supported'],
  ['REVOKE SELECT ON t FROM alice', 'line 1:1: REVOKE is not supported'],
  ['DENY DELETE ON t TO alice', 'line 1:1: DENY is not supported'],
  ['SET ROLE admin', 'line 1:1: SET ROLE is not supported'],
  ['SET SESSION AUTHORIZATION alice', 'line 1:1: SET SESSION AUTHORIZATION is not supported'],
  ['RESET SESSION AUTHORIZATION', 'line 1:1: RESET SESSION AUTHORIZATION is not supported'],
  ['SET PATH memory.default', 'line 1:1: SET PATH is not supported'],
  ["EXECUTE IMMEDIATE 'SELECT 1'", 'line 1:1: EXECUTE IMMEDIATE is not supported'],
  ['CREATE CATALOG c USING memory', 'line 1:1: CREATE CATALOG is not supported'],
  ['DROP CATALOG c', 'line 1:1: DROP CATALOG is not supported'],
  ['CREATE BRANCH b IN TABLE t', 'line 1:1: CREATE BRANCH is not supported'],
  ['CREATE INDEX i ON t (a)', 'line 1:1: CREATE INDEX is not supported'],
  ['CREATE OR REPLACE TABLE t2 (a int)', 'line 1:1: CREATE OR REPLACE TABLE is not supported'],
  ['CREATE TABLE t2 (a int, LIKE t)', 'line 1:25: CREATE TABLE ... LIKE is not supported'],
  ['DESCRIBE OUTPUT (SELECT * FROM t FOR VERSION AS OF 5)', 'line 1:34: FOR VERSION AS OF is not supported'],
  ['SHOW STATS FOR (SELECT * FROM t FOR VERSION AS OF 5)', 'line 1:33: FOR VERSION AS OF is not supported'],
  ['CREATE SCHEMA s2 AUTHORIZATION alice', 'line 1:32: CREATE SCHEMA ... AUTHORIZATION is not supported'],
];

/** Queries over `t (a integer, b integer)`. */
const QUERIES: [string, string][] = [
  ['SELECT * FROM t MATCH_RECOGNIZE (ORDER BY a PATTERN (x+) DEFINE x AS a > 0)', 'line 1:17: MATCH_RECOGNIZE is not supported'],
  ['SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t', 'line 1:8: percentile_cont(...) WITHIN GROUP is not supported'],
  ['SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t', 'line 1:8: percentile_cont(...) WITHIN GROUP is not supported'],
  ['SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY a) FROM t', 'line 1:8: percentile_disc(...) WITHIN GROUP is not supported'],
  ['SELECT * FROM t RIGHT JOIN UNNEST(ARRAY[1, 2]) u(x) ON true', 'line 1:15: RIGHT JOIN involving UNNEST is not supported'],
  ['SELECT * FROM t FOR VERSION AS OF 1', 'line 1:17: FOR VERSION AS OF is not supported'],
  ['SELECT a FROM t WHERE a MATCH (SELECT 1)', 'line 1:25: MATCH predicate is not supported'],
  ['SELECT UNIQUE (SELECT a FROM t)', 'line 1:8: UNIQUE predicate is not supported'],
  ['SELECT round(x => 1.5)', 'line 1:14: Named function arguments are not supported'],
  ["SELECT CASE a WHEN > 1 THEN 'big' END FROM t", 'line 1:20: Predicates as WHEN clauses of a simple CASE are not supported'],
  ['SELECT RUNNING max(a) FROM t', 'line 1:8: RUNNING semantics is not supported'],
  ['SELECT t.* AS (x, y) FROM t', 'line 1:16: Column aliases for * (.* AS (...)) are not supported'],
  ['SELECT CAST(a AS interval day(2) to second)', 'line 1:18: Interval precision is not supported'],
  [
    'SELECT avg(a) OVER (ORDER BY a MEASURES last(a) AS l ROWS CURRENT ROW PATTERN (x) DEFINE x AS true) FROM t',
    'line 1:32: Row pattern recognition in window frames (MEASURES, PATTERN, DEFINE) is not supported',
  ],
  ['SELECT * FROM t NATURAL JOIN t u', 'line 1:15: Natural join not supported'],
];

describe('what the engine does not run fails with NOT_SUPPORTED naming it', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run('CREATE TABLE t (a integer, b integer)', 'INSERT INTO t VALUES (1, 2)');
  });

  it('names each statement it does not run, at the statement', async () => {
    for (const [sql, message] of STATEMENTS) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal(['NOT_SUPPORTED', message]);
    }
  });

  it('names each relation, clause and expression it does not run, at its position', async () => {
    for (const [sql, message] of QUERIES) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal(['NOT_SUPPORTED', message]);
    }
  });

  it('points at the right line in multi-line text, and at the first such construct', async () => {
    const versioned = await h.failure('SELECT a\nFROM t\n   FOR VERSION AS OF 5');
    expect(versioned.location).to.deep.equal({ line: 3, column: 4 });
    expect(versioned.rawMessage).to.equal('FOR VERSION AS OF is not supported');
    expect((await h.failure('SELECT a[1],\n  UNIQUE (SELECT a FROM t)\nFROM t')).message).to.equal(
      'line 2:3: UNIQUE predicate is not supported',
    );
  });

  it('refuses before resolving names: an unsupported construct over a missing table names the construct', async () => {
    expect((await h.failure('ANALYZE nosuch')).message).to.equal('line 1:1: ANALYZE is not supported');
    expect((await h.failure('SELECT * FROM nosuch FOR VERSION AS OF 1')).message).to.equal('line 1:22: FOR VERSION AS OF is not supported');
  });

  it('names the inner statement of EXPLAIN, and checks a prepared statement when it is executed', async () => {
    expect((await h.failure('EXPLAIN CREATE INDEX i ON t (a)')).message).to.equal('line 1:9: CREATE INDEX is not supported');
    expect((await h.failure('EXPLAIN ANALYZE SELECT * FROM t FOR VERSION AS OF 1')).message).to.equal(
      'line 1:33: FOR VERSION AS OF is not supported',
    );
    await h.query('PREPARE change FROM ANALYZE t WITH (x = ?)');
    expect((await h.failure('EXECUTE change USING 1')).message).to.equal('line 1:1: ANALYZE is not supported');
    await h.query('PREPARE versioned FROM SELECT a FROM t FOR VERSION AS OF 50');
    // Positions in a prepared statement are in its own text.
    expect((await h.failure('DESCRIBE OUTPUT versioned')).message).to.equal('line 1:17: FOR VERSION AS OF is not supported');
  });

  it('names the container types it does not have, and refuses type parameters on other types', async () => {
    const cases: [string, string, string][] = [
      ['SELECT CAST(a AS array(bigint)) FROM t', 'TYPE_MISMATCH', 'line 1:8: Cannot cast integer to array(bigint)'],
      ['SELECT CAST(a AS bigint ARRAY) FROM t', 'TYPE_MISMATCH', 'line 1:8: Cannot cast integer to array(bigint)'],
      ['SELECT a[1] FROM t', 'TYPE_MISMATCH', 'line 1:9: Cannot use integer for subscript'],
      ['SELECT CAST(a AS MAP<varchar, bigint>) FROM t', 'TYPE_MISMATCH', 'line 1:8: Cannot cast integer to map(varchar, bigint)'],
      ['SELECT CAST(a AS decimal(varchar)) FROM t', 'TYPE_NOT_FOUND', 'line 1:18: Unknown type: decimal(varchar)'],
    ];
    for (const [sql, name, message] of cases) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal([name, message]);
    }
  });

  it('still runs what it supports next to these constructs', async () => {
    expect(await h.rows('SELECT (a > 0) IS NOT FALSE, b BETWEEN SYMMETRIC 3 AND 1, 0x10 + 1_000 FROM t')).to.deep.equal([
      [true, true, 1016],
    ]);
    expect(await h.rows('SELECT count(*) FROM t WHERE a BETWEEN ASYMMETRIC 1 AND 1')).to.deep.equal([[1n]]);
  });
});
