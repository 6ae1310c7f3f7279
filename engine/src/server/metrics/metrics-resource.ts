// GET /metrics: the node's figures for Prometheus, in the text format or, when the scraper asks for
// it, OpenMetrics. Open to every client, as GET /v1/status is (what it shows is the same).

import type Router from '@koa/router';
import { CpuLoadMeter } from '../node-metrics.js';
import type { ServerContext } from '../server-context.js';
import { nodeMetricFamilies } from './node-metric-families.js';
import { OPENMETRICS_FORMAT, renderMetrics, TEXT_FORMAT } from './prometheus-text.js';

export function metricsRoutes(router: Router, server: ServerContext): void {
  // Its own CPU meter, so scrapes do not shorten the window GET /v1/status measures over.
  const cpu = new CpuLoadMeter();
  router.get('/metrics', (ctx) => {
    const openMetrics = (ctx.get('Accept') || '').includes('application/openmetrics-text');
    ctx.type = openMetrics ? OPENMETRICS_FORMAT : TEXT_FORMAT;
    ctx.body = renderMetrics(nodeMetricFamilies(server, server.metrics.sample(cpu)), openMetrics);
  });
}
