// /ui/api/cluster and /ui/api/nodes: the overview's figures now and over the last 15 minutes, every
// node with its last status, one node with its own figures over time, and moving a node to another
// state (admin users only; the coordinator signs the move as it signs its requests to its nodes).

import type Router from '@koa/router';
import { ClientError } from '../../internode/client-error.js';
import { NodeClient, NodeUnreachableError } from '../../internode/node-client.js';
import { HttpError } from '../../errors/http-error.js';
import { CpuLoadMeter } from '../node-metrics.js';
import { NODE_STATES } from '../../internode/node-status.js';
import type { ServerContext } from '../server-context.js';
import { HISTORY_WINDOW_MILLIS, SAMPLE_INTERVAL_MILLIS, type ClusterHistory } from './cluster-history.js';
import { clusterNodes, type ServerClusterNode } from './cluster-nodes.js';
import { readJsonBody, uiUser } from './ui-identity.js';

/** How long the coordinator waits for a node to answer a move. */
const NODE_STATE_TIMEOUT_MILLIS = 5000;

export function uiNodeRoutes(router: Router, server: ServerContext, history: ClusterHistory): void {
  // This node's CPU load as the interface sees it: between its own refreshes, not /v1/status callers'.
  const cpu = new CpuLoadMeter();
  const nodesNow = () => clusterNodes(server, server.metrics.sample(cpu));
  const findNode = (nodeId: string): ServerClusterNode => {
    const node = nodesNow().find((n) => n.nodeId === nodeId);
    if (node === undefined) throw new HttpError(404, `Node not found: ${nodeId}`, 'NODE_NOT_FOUND');
    return node;
  };

  router.get('/ui/api/cluster', (ctx) => {
    uiUser(ctx);
    const since = Number(ctx.query.since ?? 0);
    if (!Number.isFinite(since))
      throw new HttpError(400, `since must be epoch milliseconds, got '${String(ctx.query.since)}'`, 'BAD_REQUEST');
    const nodes = nodesNow();
    ctx.body = {
      intervalMillis: SAMPLE_INTERVAL_MILLIS,
      windowMillis: HISTORY_WINDOW_MILLIS,
      nodesByState: countBy(nodes.map((n) => n.state)),
      samples: history.series(since),
    };
  });

  router.get('/ui/api/nodes', (ctx) => {
    uiUser(ctx);
    ctx.body = nodesNow();
  });

  router.get('/ui/api/nodes/:nodeId', (ctx) => {
    uiUser(ctx);
    const node = findNode(ctx.params.nodeId!);
    ctx.body = { node, history: history.nodeHistory(node.nodeId) ?? { time: [], figures: [] } };
  });

  router.put('/ui/api/nodes/:nodeId/state', async (ctx) => {
    const user = uiUser(ctx);
    const body = await readJsonBody(ctx, server);
    if (!server.access.isAdmin(user))
      throw new HttpError(403, `User '${user}' may not change node states: only security.adminUsers may`, 'PERMISSION_DENIED');
    const node = findNode(ctx.params.nodeId!);
    const target = typeof body === 'string' ? body : '';
    if (!(NODE_STATES as readonly string[]).includes(target) || target === 'INACTIVE') {
      throw new HttpError(
        400,
        `Body must be a JSON string naming a node state: ${NODE_STATES.filter((s) => s !== 'INACTIVE').join(', ')}`,
        'INVALID_NODE_STATE',
      );
    }
    const previous = node.state;
    ctx.body = JSON.stringify(node.self ? server.nodeState.request(target) : await moveRemoteNode(server, node, target));
    ctx.type = 'application/json';
    server.logger.info({ node: node.nodeId, from: previous, to: target, user }, 'node state change requested from the web interface');
  });
}

/** PUT /v1/info/state on the node, signed as the coordinator's requests are; its refusal is passed on. */
async function moveRemoteNode(server: ServerContext, node: ServerClusterNode, target: string): Promise<string> {
  try {
    return await new NodeClient(node.uri, () => server.internalAuth.authorizationHeader(), NODE_STATE_TIMEOUT_MILLIS).setState(target);
  } catch (e) {
    if (e instanceof NodeUnreachableError) throw new HttpError(502, `Node ${node.nodeId} did not answer: ${e.message}`, 'NODE_UNREACHABLE');
    if (e instanceof ClientError) throw new HttpError(400, `Node ${node.nodeId} refused: ${e.message}`, 'NODE_STATE_REFUSED');
    throw e;
  }
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
