// SQL routines that Trino refuses, refused with Trino's error names and messages at the position
// of what is wrong; and a routine that would run forever, or recurse, ending its query with an error.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

/** [statement, error name, message, line:column] */
const REFUSED: [string, string, string, string][] = [
  [
    'WITH FUNCTION f(x bigint) RETURNS varchar RETURN x SELECT f(1)',
    'TYPE_MISMATCH',
    'Value of RETURN must evaluate to varchar (actual: bigint)',
    '1:50',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint BEGIN SET y = 1; RETURN x; END SELECT f(1)',
    'NOT_FOUND',
    'Variable cannot be resolved: y',
    '1:52',
  ],
  [
    "WITH FUNCTION f(x bigint) RETURNS bigint BEGIN SET x = 'a'; RETURN x; END SELECT f(1)",
    'TYPE_MISMATCH',
    "Value of SET 'x' must evaluate to bigint (actual: varchar(1))",
    '1:56',
  ],
  ['WITH FUNCTION f(x bigint) RETURNS bigint BEGIN RETURN y; END SELECT f(1)', 'COLUMN_NOT_FOUND', "Column 'y' cannot be resolved", '1:55'],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint BEGIN LOOP LEAVE top; END LOOP; RETURN x; END SELECT f(1)',
    'NOT_FOUND',
    'Label not defined: top',
    '1:59',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint BEGIN top: LOOP top: LOOP LEAVE top; END LOOP; END LOOP; RETURN x; END SELECT f(1)',
    'ALREADY_EXISTS',
    'Label already declared in this scope: top',
    '1:58',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint BEGIN DECLARE x int; RETURN x; END SELECT f(1)',
    'ALREADY_EXISTS',
    'Variable already declared in this scope: x',
    '1:56',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint BEGIN SET x = 1; END SELECT f(1)',
    'MISSING_RETURN',
    'Function must end in a RETURN statement',
    '1:42',
  ],
  [
    "WITH FUNCTION f(x bigint) RETURNS bigint BEGIN IF 'a' THEN RETURN 1; END IF; RETURN x; END SELECT f(1)",
    'TYPE_MISMATCH',
    'Condition of IF statement must evaluate to boolean (actual: varchar(1))',
    '1:51',
  ],
  [
    "WITH FUNCTION f(x bigint) RETURNS bigint BEGIN CASE x WHEN 'a' THEN RETURN 1; END CASE; RETURN x; END SELECT f(1)",
    'TYPE_MISMATCH',
    'WHEN clause value must evaluate to CASE value type bigint (actual: varchar(1))',
    '1:60',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint RETURN f(x) SELECT f(1)',
    'NOT_SUPPORTED',
    'Recursive language functions are not supported: f(bigint):bigint',
    '1:6',
  ],
  // Mutual recursion cannot be written: a routine sees only those declared before it.
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint RETURN g(x), FUNCTION g(x bigint) RETURNS bigint RETURN f(x) SELECT f(1)',
    'FUNCTION_NOT_FOUND',
    "Function 'g' not registered",
    '1:49',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint RETURN (SELECT 1) SELECT f(1)',
    'NOT_SUPPORTED',
    'Queries are not allowed in functions',
    '1:49',
  ],
  ['WITH FUNCTION a.f(x bigint) RETURNS bigint RETURN 1 SELECT 1', 'SYNTAX_ERROR', 'Inline function names cannot be qualified: a.f', '1:6'],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint SECURITY DEFINER RETURN 1 SELECT 1',
    'NOT_SUPPORTED',
    'Security mode not supported for inline functions',
    '1:42',
  ],
  [
    "WITH FUNCTION f(x bigint) RETURNS bigint RETURN x SELECT f('a')",
    'FUNCTION_NOT_FOUND',
    'Unexpected parameters (varchar(1)) for function f. Expected: f(bigint)',
    '1:58',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS double DETERMINISTIC RETURN random() SELECT f(1)',
    'INVALID_ARGUMENTS',
    'Non-deterministic function declared DETERMINISTIC',
    '1:6',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint NOT DETERMINISTIC RETURN x SELECT f(1)',
    'INVALID_ARGUMENTS',
    'Deterministic function declared NOT DETERMINISTIC',
    '1:6',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint DETERMINISTIC DETERMINISTIC RETURN x SELECT f(1)',
    'SYNTAX_ERROR',
    'Multiple deterministic clauses specified',
    '1:56',
  ],
  [
    'WITH FUNCTION f(x bigint, x int) RETURNS bigint RETURN 1 SELECT f(1, 2)',
    'INVALID_ARGUMENTS',
    'Duplicate function parameter name: x',
    '1:27',
  ],
  ['WITH FUNCTION f(bigint) RETURNS bigint RETURN 1 SELECT f(1)', 'INVALID_ARGUMENTS', 'Function parameters must have a name', '1:17'],
  ['WITH FUNCTION f(x bigint) RETURNS bigint RETURN x SELECT f(y => 1)', 'INVALID_FUNCTION_ARGUMENT', 'No argument named y for f', '1:60'],
  [
    'WITH FUNCTION f(x bigint, y bigint) RETURNS bigint RETURN x SELECT f(x => 1, 2)',
    'INVALID_FUNCTION_ARGUMENT',
    'Positional arguments cannot follow named arguments',
    '1:78',
  ],
  [
    "WITH FUNCTION f(x bigint) RETURNS bigint LANGUAGE PYTHON WITH (handler = 'f') AS $$ def f(x): return x $$ SELECT f(1)",
    'NOT_SUPPORTED',
    'Function language PYTHON is not supported',
    '1:6',
  ],
  [
    'WITH FUNCTION f(x bigint) RETURNS bigint AS $$ x $$ SELECT f(1)',
    'SYNTAX_ERROR',
    "Functions using language 'SQL' must be defined using SQL",
    '1:45',
  ],
  ['WITH FUNCTION f(x bigint) RETURNS bigint RETURN x SELECT f(DISTINCT 1)', 'FUNCTION_NOT_FOUND', "Function 'f' not registered", '1:58'],
  [
    'CREATE VIEW v AS WITH FUNCTION f(x bigint) RETURNS bigint RETURN x SELECT f(1) AS a',
    'NOT_SUPPORTED',
    'Views cannot contain inline functions',
    '1:23',
  ],
  // A routine declared in one query is not there in the next.
  ['SELECT doubleup(21)', 'FUNCTION_NOT_FOUND', "Function 'doubleup' not registered", '1:8'],
];

describe('SQL routines: what Trino refuses', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  before(() => engine.query('WITH FUNCTION doubleup(x integer) RETURNS integer RETURN x * 2 SELECT doubleup(21)'));

  for (const [sql, name, message, at] of REFUSED) {
    it(`${name}: ${message}`, async () => {
      const error = await engine.failure(sql);
      expect([error.errorName, error.message]).to.deep.equal([name, `line ${at}: ${message}`]);
    });
  }

  it('ends a routine that loops forever with EXCEEDED_TIME_LIMIT after query_max_execution_time', async () => {
    const timed = new EngineHarness();
    timed.session.properties.set('query_max_execution_time', '1s');
    const error = await timed.failure(
      'WITH FUNCTION spin(x bigint) RETURNS bigint BEGIN LOOP SET x = x + 1; END LOOP; RETURN x; END SELECT spin(0)',
    );
    expect(error.errorName).to.equal('EXCEEDED_TIME_LIMIT');
    expect(error.message).to.equal('Query exceeded the maximum execution time limit of 1.00s in function spin');
  });

  it('refuses a chain of routines too deep for the stack with a clear error, and runs a deep one', async () => {
    const chain = (n: number) => [
      'FUNCTION f0(x bigint) RETURNS bigint RETURN x + 1',
      ...Array.from({ length: n - 1 }, (_, i) => `FUNCTION f${i + 1}(x bigint) RETURNS bigint RETURN f${i}(x) + 1`),
    ];
    expect((await engine.query(`WITH ${chain(100).join(', ')} SELECT f99(0)`)).rows).to.deep.equal([[100n]]);
    const error = await engine.failure(`WITH ${chain(5000).join(', ')} SELECT f4999(0)`);
    expect(error.errorName).to.equal('GENERIC_USER_ERROR');
    expect(error.message).to.match(/nested too deeply/);
  });
});
