// The web interface's query detail shows the plan as EXPLAIN prints it: the text the detail carries
// for a query that ran is EXPLAIN's text of the same statement, physical plan included (here a
// ParallelScan with its threads and adaptive decisions).

import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { query, runStatement } from '../support/statement-http.js';
import { UiClient } from '../support/ui-client.js';

const SQL = "SELECT l_returnflag, count(*) FROM tpch.tiny.lineitem WHERE l_comment LIKE '%fur%' GROUP BY l_returnflag";
const ALICE = { 'X-Engine-User': 'alice' };

describe("the query detail's plan text", function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start([]);
  });

  after(async () => {
    await server?.stop();
  });

  it("is EXPLAIN's text of the query, with the physical plan that ran", async () => {
    const id = (await runStatement(server.uri, SQL, ALICE)).final.id;
    const [[explained]] = (await query(server.uri, `EXPLAIN ${SQL}`, ALICE)) as string[][];
    const ui = await UiClient.signIn(server.uri, 'alice');
    const detail = (await ui.get<{ planText: string | null }>(`/ui/api/queries/${id}`)).body;
    expect(detail.planText).to.equal(explained);
    // The server takes its own tasks: the scan is a SOURCE fragment's, its splits assigned.
    expect(detail.planText, detail.planText!).to.match(/ParallelScan\[threads = \d+, splits = assigned\]\n[^\n]*\n\s+Adaptive threads: /);
  });
});
