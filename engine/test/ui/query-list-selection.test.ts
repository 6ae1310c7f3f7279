// The query list is chosen on the server (issue 18): filters by state group and failure type, search
// over id, user, source, SQL and error, sort by any column, a limit, and 400s that name a bad parameter.

import { expect } from 'chai';
import type { QuerySummary } from '../../src/coordinator/query-summary.js';
import { HttpError } from '../../src/errors/http-error.js';
import { LIST_SQL_LENGTH, parseQueryListParams, selectQueries } from '../../src/server/ui/query-list.js';

function summary(id: number, fields: Partial<QuerySummary>): QuerySummary {
  return {
    queryId: `20260101_000000_${String(id).padStart(5, '0')}_abcde`,
    state: 'FINISHED',
    user: 'alice',
    source: null,
    query: `SELECT ${id}`,
    resourceGroupId: null,
    createTime: 1000 + id,
    executionStartTime: 1000 + id,
    endTime: 2000 + id,
    elapsedMillis: 10 * id,
    queuedMillis: 0,
    cpuMillis: 100 - id,
    peakMemoryBytes: id * 1024,
    processedRows: id,
    processedBytes: id,
    outputRows: 1,
    totalSplits: 1,
    completedSplits: 1,
    progress: 100,
    errorName: null,
    errorType: null,
    errorMessage: null,
    ...fields,
  };
}

const ROWS: QuerySummary[] = [
  summary(1, { state: 'RUNNING', progress: 40 }),
  summary(2, { state: 'QUEUED', progress: null }),
  summary(3, {
    state: 'FAILED',
    errorName: 'TABLE_NOT_FOUND',
    errorType: 'USER_ERROR',
    errorMessage: "Table 'memory.default.nope' does not exist",
  }),
  summary(4, {
    state: 'FAILED',
    errorName: 'EXCEEDED_LOCAL_MEMORY_LIMIT',
    errorType: 'INSUFFICIENT_RESOURCES',
    errorMessage: 'Query exceeded per-node memory limit',
  }),
  summary(5, { user: 'bob', source: 'etl-nightly', query: `SELECT * FROM orders WHERE ${'x = 1 AND '.repeat(60)}true` }),
  summary(6, { state: 'FINISHING' }),
];

const ids = (page: ReturnType<typeof selectQueries>) => page.queries.map((q) => Number(q.queryId.split('_')[2]));
const select = (query: Record<string, string>) => selectQueries(ROWS, parseQueryListParams(query));

describe('the query list chosen on the server', () => {
  it('lists the newest first by default, with counts per state group', () => {
    const page = select({});
    expect(ids(page)).to.deep.equal([6, 5, 4, 3, 2, 1]);
    expect(page.total).to.equal(6);
    expect(page.matched).to.equal(6);
    expect(page.counts).to.deep.equal({ queued: 1, running: 2, finished: 1, failed: 2 });
  });

  it('filters by state groups: running covers every state between the queue and the end', () => {
    expect(ids(select({ state: 'running' }))).to.deep.equal([6, 1]);
    expect(ids(select({ state: 'queued,finished' }))).to.deep.equal([5, 2]);
  });

  it('filters failed queries by failure type', () => {
    expect(ids(select({ failure: 'USER_ERROR' }))).to.deep.equal([3]);
    expect(ids(select({ state: 'failed', failure: 'insufficient_resources,EXTERNAL' }))).to.deep.equal([4]);
  });

  it('searches id, user, source, SQL and error, without regard to case', () => {
    expect(ids(select({ search: 'BOB' }))).to.deep.equal([5]);
    expect(ids(select({ search: 'etl-' }))).to.deep.equal([5]);
    expect(ids(select({ search: 'does not exist' }))).to.deep.equal([3]);
    expect(ids(select({ search: 'table_not' }))).to.deep.equal([3]);
    expect(ids(select({ search: '_00004_' }))).to.deep.equal([4]);
    expect(ids(select({ search: 'select 2' }))).to.deep.equal([2]);
  });

  it('sorts by any column, either way', () => {
    expect(ids(select({ sort: 'cpu', order: 'asc' }))).to.deep.equal([6, 5, 4, 3, 2, 1]);
    expect(ids(select({ sort: 'memory' }))).to.deep.equal([6, 5, 4, 3, 2, 1]);
    expect(ids(select({ sort: 'user', order: 'asc' }))).to.deep.equal([6, 4, 3, 2, 1, 5]);
    expect(ids(select({ sort: 'progress', order: 'asc' }))[0]).to.equal(2);
  });

  it('sends at most the limit, and SQL cut to a length the detail has whole', () => {
    const page = select({ limit: '2' });
    expect(ids(page)).to.deep.equal([6, 5]);
    expect(page.matched).to.equal(6);
    const long = page.queries[1]!;
    expect(long.query).to.have.length(LIST_SQL_LENGTH);
    expect(long.queryTruncated).to.equal(true);
    expect(page.queries[0]!.queryTruncated).to.equal(false);
  });

  it('refuses a bad parameter with a 400 naming it', () => {
    const refusal = (query: Record<string, string>) => {
      try {
        parseQueryListParams(query);
      } catch (e) {
        expect(e).to.be.instanceOf(HttpError);
        expect((e as HttpError).status).to.equal(400);
        return (e as HttpError).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ state: 'sleeping' })).to.match(/Unknown state filter 'sleeping'/);
    expect(refusal({ failure: 'BAD_LUCK' })).to.match(/Unknown failure type 'BAD_LUCK'/);
    expect(refusal({ sort: 'colour' })).to.match(/Unknown sort column 'colour'/);
    expect(refusal({ order: 'up' })).to.match(/asc or desc/);
    expect(refusal({ limit: '0' })).to.match(/limit must be an integer from 1 to 1000/);
    expect(refusal({ limit: '5000' })).to.match(/limit/);
  });
});
