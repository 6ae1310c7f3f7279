// A worker's side of discovery: announces the node to its coordinator (PUT /v1/announcement/{nodeId})
// at once and then every announcement interval, and withdraws it (DELETE) when the node stops. Both carry
// the node's internal bearer token. A failing announcement is logged once, not every interval, and
// retried; a refused token is logged with its cause (the nodes' shared secrets differ).

import { smallRequest, type SmallRequest } from '../internode/small-request.js';
import { buildAnnouncement, type AnnouncedNode } from '../internode/announcement.js';
import type { Logger } from '../log/logger.js';
import { InternalAgents } from '../security/authentication/internal-tls.js';
import { SHARED_SECRET_SETTING, type InternalAuthenticator } from './internal-auth/internal-authenticator.js';

const WITHDRAW_TIMEOUT_MILLIS = 1000;

export class Announcer {
  private timer: NodeJS.Timeout | undefined;
  private lastProblem: string | undefined;
  private announcedOnce = false;
  private readonly address: string;
  /** One kept-alive connection to the coordinator for every renewal (node:http: a fraction of fetch's CPU per request). */
  private readonly agents = new InternalAgents();

  constructor(
    discoveryUri: string,
    private readonly node: () => AnnouncedNode,
    private readonly intervalMillis: number,
    private readonly logger: Logger,
    private readonly internalAuth: InternalAuthenticator,
  ) {
    this.address = `${discoveryUri.replace(/\/+$/, '')}/v1/announcement/${encodeURIComponent(node().nodeId)}`;
  }

  start(): void {
    if (this.timer) return;
    void this.announce();
    this.timer = setInterval(() => void this.announce(), this.intervalMillis);
  }

  /** Stops renewing and tells the coordinator the node is leaving (best effort, briefly). */
  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    try {
      await this.send({ method: 'DELETE', headers: this.internalAuth.authorizationHeader() }, WITHDRAW_TIMEOUT_MILLIS);
    } catch (e) {
      this.logger.warn({ discovery: this.address, message: (e as Error).message }, 'could not withdraw the announcement');
    } finally {
      this.agents.destroy();
    }
  }

  private send(request: SmallRequest, timeoutMillis: number): Promise<{ status: number; text: string }> {
    return smallRequest(this.address, request, this.agents.for(this.address), timeoutMillis);
  }

  private async announce(): Promise<void> {
    let problem: string | undefined;
    let refusedToken = false;
    try {
      const body = JSON.stringify(buildAnnouncement(this.node()));
      const headers = { 'Content-Type': 'application/json', ...this.internalAuth.authorizationHeader() };
      const { status, text } = await this.send({ method: 'PUT', headers, body }, this.intervalMillis);
      if (status < 200 || status >= 300) problem = `${status}: ${errorMessage(text)}`;
      refusedToken = status === 401;
    } catch (e) {
      problem = (e as Error).message;
    }
    if (problem !== undefined) {
      if (problem !== this.lastProblem)
        this.logger.error(
          { discovery: this.address, problem },
          refusedToken ? this.authenticationFailure() : 'the coordinator refused or missed the announcement; retrying',
        );
    } else if (this.lastProblem !== undefined || !this.announcedOnce) {
      this.logger.info({ discovery: this.address }, 'announced to the coordinator');
      this.announcedOnce = true;
    }
    this.lastProblem = problem;
  }

  private authenticationFailure(): string {
    return this.internalAuth.enabled
      ? `the coordinator refused this worker's internal bearer token: both need the same ${SHARED_SECRET_SETTING} (or none), and clocks within a minute; retrying`
      : `the coordinator requires ${SHARED_SECRET_SETTING} and this worker has none: start it with the coordinator's secret (ENGINE_SHARED_SECRET); retrying`;
  }
}

function errorMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text;
  }
}
