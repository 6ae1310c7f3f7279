// Trino has no CAST from varbinary to varchar (only varchar -> varbinary; bytes become text through
// from_utf8): its analyzer finds no cast operator and fails TYPE_MISMATCH "Cannot cast varbinary to
// varchar" at the CAST, TRY_CAST too (ExpressionAnalyzer.visitCast, OperatorNotFoundException).
// JSON_ARRAY and JSON_OBJECT take no varbinary value without FORMAT: NOT_SUPPORTED at the value
// (ExpressionAnalyzer.visitJsonArray / visitJsonObject: a string type that is no character string).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('CAST of varbinary to varchar', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  it('does not exist: TYPE_MISMATCH at the cast, for CAST and TRY_CAST, bounded or not, constant or column', async () => {
    const refusals = [
      ["SELECT CAST(X'68656c6c6f' AS varchar)", 'line 1:8: Cannot cast varbinary to varchar'],
      ["SELECT TRY_CAST(X'68656c6c6f' AS varchar(5))", 'line 1:8: Cannot cast varbinary to varchar(5)'],
      ["SELECT 1, CAST(b AS varchar) FROM (VALUES X'01') t(b)", 'line 1:11: Cannot cast varbinary to varchar'],
      // Nor inside a container.
      ["SELECT CAST(ARRAY[X'01'] AS array(varchar))", 'line 1:8: Cannot cast array(varbinary) to array(varchar)'],
    ];
    for (const [sql, message] of refusals) {
      const e = await engine.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal(['TYPE_MISMATCH', message]);
    }
  });

  it('leaves the ways Trino has: varchar to varbinary, and from_utf8', async () => {
    const { rows } = await engine.query("SELECT CAST('hello' AS varbinary), from_utf8(X'68656c6c6f')");
    expect([Buffer.from(rows[0][0] as Uint8Array).toString('hex'), rows[0][1]]).to.deep.equal(['68656c6c6f', 'hello']);
  });

  it('JSON_ARRAY and JSON_OBJECT refuse a varbinary value without FORMAT, at the value', async () => {
    const refusals = [
      ["SELECT JSON_ARRAY(1, X'01')", 'line 1:22: Unsupported type of value passed to JSON_ARRAY function: varbinary'],
      ["SELECT JSON_OBJECT('a' : X'01')", 'line 1:26: Unsupported type of value passed to JSON_OBJECT function: varbinary'],
    ];
    for (const [sql, message] of refusals) {
      const e = await engine.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal(['NOT_SUPPORTED', message]);
    }
  });
});
