// The coordinator's health checks per node for GET /metrics: counts since it first saw each node
// (not the decaying counters of /v1/node), so a scraper or a benchmark sees every failed check of a
// period as the difference of two scrapes.

import type { RemoteNode } from '../../coordinator/remote-node.js';
import type { MetricFamily } from './prometheus-text.js';

export function healthCheckFamilies(nodes: readonly RemoteNode[]): MetricFamily[] {
  const perNode = (count: (node: RemoteNode) => number) => nodes.map((n) => ({ labels: { node_id: n.nodeId }, value: count(n) }));
  return [
    {
      name: 'engine_node_health_checks',
      type: 'counter',
      help: 'Health checks this coordinator made of each node since it first saw it',
      samples: perNode((n) => n.healthChecks),
    },
    {
      name: 'engine_node_health_checks_failed',
      type: 'counter',
      help: 'Health checks of each node that failed (no answer in time, an error, or an answer without a state)',
      samples: perNode((n) => n.healthChecksFailed),
    },
  ];
}
