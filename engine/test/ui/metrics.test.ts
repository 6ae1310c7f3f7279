// GET /metrics on every node (issue 18): Prometheus' text format as a maintained parser reads it
// (parse-prometheus-text-format), named by Prometheus' conventions (base units in names, counters
// ending in _total, no series per query), OpenMetrics when the scraper asks for it, open like
// /v1/status; and the counters move as queries run — submitted, ended by state, failures by type,
// rows read, exchange bytes between nodes.

import { expect } from 'chai';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from '../cluster/cluster-fixture.js';

const USER = { 'X-Engine-User': 'metrics' };

async function scrape(uri: string): Promise<ParsedFamily[]> {
  const response = await fetch(`${uri}/metrics`);
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusTextFormat(await response.text());
}

/** The value of a sample: the family's only one, or the one with these labels. */
function value(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  if (family === undefined) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (sample === undefined) throw new Error(`no sample of ${name} with ${JSON.stringify(labels)}`);
  return Number(sample.value);
}

describe('GET /metrics', function () {
  this.timeout(120_000);
  const cluster = withCluster(1);

  it('is the text format, named by the conventions, with HELP and TYPE for every family and no series per query', async () => {
    for (const uri of [cluster.coordinator.uri, cluster.worker('worker-1').uri]) {
      const families = await scrape(uri);
      expect(families.length).to.be.greaterThan(15);
      for (const f of families) {
        expect(f.name, f.name).to.match(/^[a-z_][a-z0-9_]*$/);
        expect(f.help, f.name).to.not.equal('');
        expect(['COUNTER', 'GAUGE'], f.name).to.include(f.type);
        if (f.type === 'COUNTER') expect(f.name).to.match(/_total$/);
        for (const m of f.metrics) expect(Object.keys(m.labels ?? {}), f.name).to.not.include.members(['query_id', 'task_id']);
      }
      expect(value(families, 'engine_node_state', { state: 'ACTIVE' })).to.equal(1);
      expect(value(families, 'engine_node_state', { state: 'ISOLATED' })).to.equal(0);
      expect(value(families, 'process_resident_memory_bytes')).to.be.greaterThan(10 * 1024 * 1024);
      expect(value(families, 'engine_memory_pool_max_bytes', { pool: 'general' })).to.be.greaterThan(0);
    }
    const coordinator = await scrape(cluster.coordinator.uri);
    expect(value(coordinator, 'engine_cluster_nodes', { state: 'ACTIVE' })).to.equal(2);
    expect(value(coordinator, 'engine_node_info', { node_id: 'coordinator', coordinator: 'true' })).to.equal(1);
    // Query figures are the coordinator's: a worker has none.
    expect((await scrape(cluster.worker('worker-1').uri)).map((f) => f.name)).to.not.include('engine_queries_submitted_total');
  });

  it('moves its counters as queries run and fail', async () => {
    const before = await scrape(cluster.coordinator.uri);
    const workerBefore = await scrape(cluster.worker('worker-1').uri);
    const lineitemRows = Number((await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.lineitem', USER))[0]![0]);
    await query(cluster.coordinator.uri, 'SELECT l_returnflag, sum(l_quantity) FROM tpch.tiny.lineitem GROUP BY 1', USER);
    const failure = await runStatement(cluster.coordinator.uri, 'SELECT 1 / 0', USER);
    expect(failure.final.error!.errorName).to.equal('DIVISION_BY_ZERO');
    const after = await scrape(cluster.coordinator.uri);
    const workerAfter = await scrape(cluster.worker('worker-1').uri);

    const moved = (families: [ParsedFamily[], ParsedFamily[]], name: string, labels: Record<string, string> = {}) =>
      value(families[1], name, labels) - value(families[0], name, labels);
    const coordinator: [ParsedFamily[], ParsedFamily[]] = [before, after];
    expect(moved(coordinator, 'engine_queries_submitted_total')).to.equal(3);
    expect(moved(coordinator, 'engine_queries_completed_total', { state: 'FINISHED' })).to.equal(2);
    expect(moved(coordinator, 'engine_queries_completed_total', { state: 'FAILED' })).to.equal(1);
    expect(moved(coordinator, 'engine_query_failures_total', { type: 'USER_ERROR' })).to.equal(1);
    expect(moved(coordinator, 'engine_query_failures_total', { type: 'INTERNAL_ERROR' })).to.equal(0);
    // Both lineitem queries read the whole table.
    expect(moved(coordinator, 'engine_query_input_rows_total')).to.equal(2 * lineitemRows);
    expect(moved(coordinator, 'engine_query_input_bytes_total')).to.be.greaterThan(0);
    expect(moved(coordinator, 'process_cpu_seconds_total')).to.be.greaterThan(0);
    // The scans ran on the worker, which sent their pages to the coordinator over HTTP.
    const worker: [ParsedFamily[], ParsedFamily[]] = [workerBefore, workerAfter];
    expect(moved(worker, 'engine_exchange_sent_bytes_total')).to.be.greaterThan(0);
    expect(moved(coordinator, 'engine_exchange_received_bytes_total')).to.equal(moved(worker, 'engine_exchange_sent_bytes_total'));
    expect(value(after, 'engine_queries', { state: 'RUNNING' })).to.equal(0);
  });

  it('counts the requests each node answered by method and route, with their body bytes', async () => {
    const worker = cluster.worker('worker-1').uri;
    const before = await scrape(worker);
    await query(cluster.coordinator.uri, 'SELECT l_returnflag, count(*) FROM tpch.tiny.lineitem GROUP BY 1', USER);
    expect((await fetch(`${worker}/no/such/path`)).status).to.equal(404);
    const after = await scrape(worker);
    const moved = (name: string, labels: Record<string, string>) => {
      const at = (families: ParsedFamily[]) =>
        (families.find((f) => f.name === name)?.metrics ?? []).find(
          (m) => m.labels?.method === labels.method && m.labels?.route === labels.route,
        );
      return Number(at(after)?.value ?? 0) - Number(at(before)?.value ?? 0);
    };
    // The coordinator created the task with a body (its fragment and splits) and read the task's pages.
    const create = { method: 'POST', route: '/v1/task/:taskId' };
    expect(moved('engine_http_requests_total', create)).to.be.greaterThan(0);
    expect(moved('engine_http_request_body_bytes_total', create)).to.be.greaterThan(100);
    const pages = { method: 'GET', route: '/v1/task/:taskId/results/:outputId/:token' };
    expect(moved('engine_http_requests_total', pages)).to.be.greaterThan(0);
    expect(moved('engine_http_response_body_bytes_total', pages)).to.be.greaterThan(0);
    // A path no route takes is counted under one label, whatever it was: the series stay few.
    expect(moved('engine_http_requests_total', { method: 'GET', route: '(none)' })).to.equal(1);
    expect(after.find((f) => f.name === 'engine_http_requests_total')!.metrics.map((m) => m.labels?.route)).to.not.include('/no/such/path');
  });

  it("counts the coordinator's health checks of each node, and the failed ones, without decay", async () => {
    const coordinator = await scrape(cluster.coordinator.uri);
    // The worker joined healthy (waitForActiveWorkers): its checks were made and answered.
    expect(value(coordinator, 'engine_node_health_checks_total', { node_id: 'worker-1' })).to.be.greaterThan(0);
    expect(value(coordinator, 'engine_node_health_checks_failed_total', { node_id: 'worker-1' })).to.equal(0);
    // A worker checks no node: it has no such family.
    const worker = await scrape(cluster.worker('worker-1').uri);
    expect(() => value(worker, 'engine_node_health_checks_total')).to.throw('no metric engine_node_health_checks_total');
  });

  it('answers OpenMetrics when the scraper asks for it', async () => {
    const response = await fetch(`${cluster.coordinator.uri}/metrics`, {
      headers: { Accept: 'application/openmetrics-text; version=1.0.0' },
    });
    expect(response.headers.get('content-type')).to.equal('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('# EOF\n')).to.equal(true);
    expect(text).to.include('# TYPE engine_queries_submitted counter\n');
    expect(text).to.match(/^engine_queries_submitted_total \d+$/m);
  });
});
