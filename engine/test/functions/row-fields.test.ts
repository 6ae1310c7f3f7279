// ROW::fields(r): the cases of Trino's TestRowFunctions.testFields (field names from the row type
// alone, NULL for unnamed fields, also for a NULL row), and the calls it does not take.

import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('ROW::fields', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const cases: ReadonlyArray<readonly [string, (string | null)[]]> = [
    ["CAST(ROW('hello', 'world') AS ROW(greeting VARCHAR, planet VARCHAR))", ['greeting', 'planet']],
    ['CAST(NULL AS ROW(greeting VARCHAR, planet VARCHAR))', ['greeting', 'planet']],
    ["ROW('hello', 'world')", [null, null]],
    ['CAST(NULL AS ROW(greeting VARCHAR, planet ROW(color varchar, size bigint)))', ['greeting', 'planet']],
    // functions/row.md's example (its page prints the names in capitals; Trino's own test and parser keep them as written, lowercased)
    ["row('hello' as greeting, 'world' as planet)", ['greeting', 'planet']],
  ];
  for (const [data, names] of cases) {
    it(`ROW::fields(${data}) -> ${JSON.stringify(names)}`, async () => {
      const { rows, types } = await engine.query(`SELECT ROW::fields(${data})`);
      expect([rows, types]).to.deep.equal([[[names]], ['array(varchar)']]);
    });
  }

  failureCases(
    'FUNCTION_NOT_FOUND',
    [['SELECT ROW::fields(1)', 'Unexpected parameters (integer) for function row::fields. Expected: row::fields(row)']],
    engine,
  );
  // Trino's TestStaticMethodCall: the receiver must name a type, and the type must have the method.
  failureCases('TYPE_NOT_FOUND', [['SELECT foo::bar(1)', 'Unknown type: foo']], engine);
  failureCases('FUNCTION_NOT_FOUND', [['SELECT row::bar(1)', "Function 'bar' not registered"]], engine);
});
