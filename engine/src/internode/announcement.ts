// The body of PUT /v1/announcement/{nodeId}, shaped as airlift's discovery Announcement: the node's
// environment, id, pool and location, and its services; the `engine` service's properties carry the
// node's HTTP address, version and coordinator flag (as Trino's do).

import { ProtocolError } from './protocol-error.js';
import { validatorFor } from '../spi/validators.js';

export const ENGINE_SERVICE_TYPE = 'engine';

export interface AnnouncedService {
  id: string;
  type: string;
  properties: Record<string, string>;
}

export interface Announcement {
  environment: string;
  nodeId: string;
  pool: string;
  location: string;
  services: AnnouncedService[];
}

/** What a coordinator learns from an announcement. */
export interface AnnouncedNode {
  nodeId: string;
  environment: string;
  uri: string;
  version: string;
  coordinator: boolean;
  /** The node's worker threads (task.maxWorkerThreads), which the coordinator plans its tasks' parallel scans for; absent from an older node. */
  workerThreads?: number;
}

/** An announcement the coordinator refuses (answered with 400). */
export class AnnouncementError extends ProtocolError {
  constructor(message: string) {
    super(message);
    this.name = 'AnnouncementError';
  }
}

const SCHEMA = {
  type: 'object',
  required: ['environment', 'nodeId', 'services'],
  properties: {
    environment: { type: 'string', minLength: 1 },
    nodeId: { type: 'string', minLength: 1 },
    pool: { type: 'string' },
    location: { type: 'string' },
    services: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'properties'],
        properties: {
          id: { type: 'string' },
          type: { type: 'string' },
          properties: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  },
} as const;

const validate = validatorFor<Announcement>(SCHEMA, { allErrors: true });

export function buildAnnouncement(node: AnnouncedNode): Announcement {
  return {
    environment: node.environment,
    nodeId: node.nodeId,
    pool: 'general',
    location: `/${node.nodeId}`,
    services: [
      {
        id: node.nodeId,
        type: ENGINE_SERVICE_TYPE,
        properties: {
          http: node.uri,
          node_version: node.version,
          coordinator: String(node.coordinator),
          ...(node.workerThreads === undefined ? {} : { worker_threads: String(node.workerThreads) }),
        },
      },
    ],
  };
}

/** Checks an announcement addressed to /v1/announcement/{pathNodeId} and reads the node from it. */
export function readAnnouncement(body: unknown, pathNodeId: string): AnnouncedNode {
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`);
    throw new AnnouncementError(`Invalid announcement: ${problems.join('; ')}`);
  }
  if (body.nodeId !== pathNodeId)
    throw new AnnouncementError(`Announcement for node '${body.nodeId}' sent to the address of node '${pathNodeId}'`);
  const service = body.services.find((s) => s.type === ENGINE_SERVICE_TYPE);
  if (!service) throw new AnnouncementError(`Announcement of node '${pathNodeId}' has no '${ENGINE_SERVICE_TYPE}' service`);
  const { http, node_version: version, coordinator, worker_threads: threads } = service.properties;
  if (http === undefined || !/^https?:\/\/[^\s/]+$/.test(http))
    throw new AnnouncementError(
      `Announcement of node '${pathNodeId}': property 'http' must be the node's address (http://host:port), got ${JSON.stringify(http)}`,
    );
  if (version === undefined) throw new AnnouncementError(`Announcement of node '${pathNodeId}' lacks property 'node_version'`);
  if (coordinator !== 'true' && coordinator !== 'false')
    throw new AnnouncementError(
      `Announcement of node '${pathNodeId}': property 'coordinator' must be 'true' or 'false', got ${JSON.stringify(coordinator)}`,
    );
  if (threads !== undefined && !/^[1-9][0-9]{0,5}$/.test(threads))
    throw new AnnouncementError(
      `Announcement of node '${pathNodeId}': property 'worker_threads' must be a positive integer, got ${JSON.stringify(threads)}`,
    );
  const workerThreads = threads === undefined ? undefined : Number(threads);
  return { nodeId: pathNodeId, environment: body.environment, uri: http, version, coordinator: coordinator === 'true', workerThreads };
}
