// Two documented results Trino itself does not give, which the statement checker therefore compares
// with Trino's answer (statement-setup.ts, errata): types.md's TIME WITH TIME ZONE example, printed
// there without the hour's leading zero, and show-functions.md's SHOW FUNCTIONS LIKE 'cf%', whose
// rows are a custom plugin's functions. The oracle is Trino: SqlTimeWithTimeZone.toString (two
// digits for the hour) and its function list (no cf_* function in its source).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { cliText } from '../support/documented-examples.js';
import { normalizeResult } from '../../scripts/docs-examples/extract.js';
import { extractStatementExamples } from '../../scripts/docs-examples/extract-statements.js';
import { STATEMENT_PAGE_SETUP, withErratum } from '../../scripts/docs-examples/statement-setup.js';

const TYPES_PAGE = ['### `TIME WITH TIME ZONE`', '', '```', "SELECT TIME '01:02:03.456 -08:00';", '-- 1:02:03.456-08:00', '```'].join('\n');
const SHOW_FUNCTIONS_PAGE = [
  '```sql',
  "SHOW FUNCTIONS LIKE 'cf%';",
  '```',
  '',
  '```text',
  '     Function      | Return Type | Argument Types | Function Type | Deterministic |               Description',
  ' ------------------+-------------+----------------+---------------+---------------+-----------------------------------------',
  " cf_getuser        | varchar     |                | scalar        | true          | Returns the current session's user",
  '```',
].join('\n');

describe('docs checker: documented results Trino does not give', () => {
  it('TIME WITH TIME ZONE prints a two-digit hour, as Trino does; the checker compares with that', async () => {
    const [documented] = extractStatementExamples(TYPES_PAGE);
    expect(documented.expected).to.equal('1:02:03.456-08:00');
    const example = withErratum(documented, STATEMENT_PAGE_SETUP['types.md']);
    expect(example.expected).to.equal('01:02:03.456-08:00');
    const { rows, columns } = await new EngineHarness().query(documented.sql);
    expect(columns[0].type).to.deep.equal({ kind: 'time with time zone', precision: 3 });
    expect(normalizeResult(cliText(rows[0][0], columns[0].type))).to.equal(example.expected);
  });

  it("SHOW FUNCTIONS LIKE 'cf%' lists nothing, as Trino without that plugin; LIKE filters real names", async () => {
    const [documented] = extractStatementExamples(SHOW_FUNCTIONS_PAGE);
    expect(documented.expectedRows).to.have.length(1);
    expect(withErratum(documented, STATEMENT_PAGE_SETUP['show-functions.md']).expectedRows).to.deep.equal([]);
    const h = new EngineHarness();
    const shown = await h.query(documented.sql);
    expect(shown.columns.map((c) => c.name)).to.deep.equal([
      'Function',
      'Return Type',
      'Argument Types',
      'Function Type',
      'Deterministic',
      'Description',
    ]);
    expect(shown.rows).to.deep.equal([]);
    const json = await h.rows("SHOW FUNCTIONS LIKE 'json_array_%'");
    expect([...new Set(json.map((r) => r[0]))]).to.deep.equal(['json_array_contains', 'json_array_get', 'json_array_length']);
  });
});
