// The coordinator's queries: admission (through the resource groups), lookup and cancellation,
// abandonment of queries whose client stopped polling, and a bounded history of finished queries
// for /v1/query and system.runtime.queries.

import type { EngineConfig } from '../config/config-schema.js';
import { EngineError, toEngineError } from '../errors/engine-error.js';
import type { MemoryContext } from '../exec/memory.js';
import type { Logger } from '../log/logger.js';
import { ManagedQuery, type ClientInfo, type StatementRunner } from './managed-query.js';
import { QueryIdGenerator } from './query-id.js';
import { ResourceGroupManager } from './resource-groups/resource-group-manager.js';
import type { ResourceGroupsFile } from './resource-groups/resource-groups-file.js';
import type { ResponseLimits } from './result-buffer.js';
import type { Session } from '../spi/session.js';
import { queryMaxExecutionMillis } from '../config/query-time-limit.js';
import { formatDuration } from '../config/duration.js';
import type { SessionPropertyManager } from './session-property-manager.js';
import { QueryCounters } from './query-counters.js';

/** The `query` settings of the configuration (clientTimeout and maxHistoryAge in milliseconds), and the memory limits. */
export interface QueryManagerOptions extends Readonly<EngineConfig['query']> {
  responseLimits: ResponseLimits;
  queryMaxMemoryBytes: number;
  nodeMemory: MemoryContext;
  resourceGroups: ResourceGroupsFile;
  /** Checks the session properties clients send. */
  sessionProperties: SessionPropertyManager;
}

/** A session before its query exists: the manager adds the query id and start time. */
export type SessionRequest = Omit<Session, 'queryId' | 'startTime'>;

const HOUSEKEEPING_INTERVAL_MILLIS = 1000;

export class QueryManager {
  private readonly queries = new Map<string, ManagedQuery>();
  private readonly groups: ResourceGroupManager;
  private readonly ids = new QueryIdGenerator();
  /** Finished queries whose client has not yet read the final response. */
  private readonly awaitingClient = new Set<ManagedQuery>();
  private readonly workListeners: Array<() => void> = [];
  private readonly endListeners: Array<(query: ManagedQuery) => void> = [];
  /** What the queries did since the coordinator started (GET /metrics). */
  readonly counters = new QueryCounters();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly runner: StatementRunner,
    private readonly options: QueryManagerOptions,
    private readonly logger: Logger,
  ) {
    this.groups = new ResourceGroupManager(options.resourceGroups, options.nodeMemory.limitBytes, (query) => void query.run(this.runner));
    this.timer = setInterval(() => this.housekeeping(), HOUSEKEEPING_INTERVAL_MILLIS);
    this.timer.unref();
  }

  submit(sql: string, request: SessionRequest, client: ClientInfo): ManagedQuery {
    const id = this.ids.next();
    const session: Session = { ...request, queryId: id, startTime: Date.now() };
    const memory = this.options.nodeMemory.child(`query ${id}`, this.options.queryMaxMemoryBytes);
    const query = new ManagedQuery(id, sql, session, client, memory, this.options.responseLimits);
    this.queries.set(id, query);
    this.counters.querySubmitted();
    query.onDone(() => this.queryDone(query));
    const invalidSession = checkSessionProperties(session, this.options.sessionProperties);
    if (invalidSession) {
      query.fail(invalidSession);
    } else if (sql.length > this.options.maxLength) {
      query.fail(
        new EngineError('QUERY_TEXT_TOO_LARGE', `Query text length (${sql.length}) exceeds the maximum length (${this.options.maxLength})`),
      );
    } else {
      this.groups.submit(query);
    }
    return query;
  }

  get(queryId: string): ManagedQuery | undefined {
    return this.queries.get(queryId);
  }

  /** Every known query, oldest first. */
  list(): ManagedQuery[] {
    return [...this.queries.values()];
  }

  /** Queries not yet FINISHED or FAILED, or whose client has not read the final response yet. */
  activeCount(): number {
    return this.groups.runningCount() + this.groups.queuedCount() + this.awaitingClient.size;
  }

  runningCount(): number {
    return this.groups.runningCount();
  }

  queuedCount(): number {
    return this.groups.queuedCount();
  }

  /** Finished queries whose client has not read the final response yet. */
  awaitingClientCount(): number {
    return this.awaitingClient.size;
  }

  /** Called once for every query that ends, after the manager recorded its end (the query history writes it). */
  onQueryEnded(listener: (query: ManagedQuery) => void): void {
    this.endListeners.push(listener);
  }

  /** Called whenever activeCount() may have dropped (the node state machine waits on this for isolation and shutdown). */
  onWorkChanged(listener: () => void): void {
    this.workListeners.push(listener);
  }

  /** The client has what it needs: it read the final response, or it canceled the query. */
  clientFinished(query: ManagedQuery): void {
    query.clientFinished = true;
    if (this.awaitingClient.delete(query)) this.workChanged();
  }

  /** Stops housekeeping and fails every active query (the server is going away). */
  close(reason: EngineError): void {
    clearInterval(this.timer);
    const active = [...this.groups.activeQueries()];
    // Queued ones first, so the slots the running ones free are not handed to them.
    for (const query of [...active.filter((q) => q.state === 'QUEUED'), ...active]) query.fail(reason);
  }

  private queryDone(query: ManagedQuery): void {
    this.groups.finished(query);
    if (!query.clientFinished) this.awaitingClient.add(query);
    this.logCompletion(query);
    this.counters.queryEnded(query);
    for (const listener of this.endListeners) listener(query);
    this.expireHistory();
    this.workChanged();
  }

  private workChanged(): void {
    for (const listener of this.workListeners) listener();
  }

  private logCompletion(query: ManagedQuery): void {
    const error = query.error;
    const fields = {
      queryId: query.id,
      state: query.state,
      user: query.session.user,
      source: query.session.source,
      elapsedMillis: query.elapsedMillis(),
      queuedMillis: query.queuedMillis(),
      outputRows: query.buffer?.rowsAdded ?? 0,
      processedRows: query.progress.processedRows,
      peakMemoryBytes: query.memoryUsage.peakBytes,
      peakTaskMemoryBytes: query.memoryUsage.peakTaskBytes,
      ...(error ? { errorName: error.errorName, errorCode: error.errorCode, error: error.message } : {}),
    };
    if (error?.errorName === 'GENERIC_INTERNAL_ERROR')
      this.logger.error({ ...fields, stack: error.stack }, 'query failed with an internal error');
    else this.logger.info(fields, 'query completed');
  }

  private housekeeping(now = Date.now()): void {
    for (const query of [...this.groups.activeQueries()]) {
      this.enforceTimeLimit(query, now);
      if (now - query.lastClientAccess > this.options.clientTimeout) {
        query.fail(
          new EngineError(
            'ABANDONED_QUERY',
            `Query ${query.id} was abandoned by the client, as it may have exited or stopped checking for query results. ` +
              `Query results have not been accessed since ${new Date(query.lastClientAccess).toISOString()}: currentTime ${new Date(now).toISOString()}`,
          ),
        );
      }
    }
    for (const query of this.awaitingClient) {
      if (now - query.lastClientAccess > this.options.clientTimeout) this.clientFinished(query);
    }
    this.expireHistory(now);
    // Running queries' memory changes without an event: a group over its soft memory limit may have room again.
    this.groups.startQueued();
  }

  /** A query running (out of the queue) longer than its session's query_max_execution_time fails, as Trino's QueryTracker fails it. */
  private enforceTimeLimit(query: ManagedQuery, now: number): void {
    if (query.done || query.executionStartTime === undefined) return;
    const limit = queryMaxExecutionMillis(query.session);
    if (now - query.executionStartTime > limit) {
      query.fail(new EngineError('EXCEEDED_TIME_LIMIT', `Query exceeded the maximum execution time limit of ${formatDuration(limit)}`));
    }
  }

  /** Drops finished queries older than maxHistoryAge, then the oldest beyond maxHistory. */
  private expireHistory(now = Date.now()): void {
    const finished = this.list().filter((q) => q.done);
    let excess = finished.length - this.options.maxHistory;
    for (const query of finished.sort((a, b) => a.endTime! - b.endTime!)) {
      if (excess > 0 || now - query.endTime! > this.options.maxHistoryAge) {
        this.queries.delete(query.id);
        excess--;
      }
    }
  }
}

/** Session properties sent by the client must exist and have valid values (normalised in place), or the query fails. */
function checkSessionProperties(session: Session, properties: SessionPropertyManager): EngineError | undefined {
  try {
    for (const [name, value] of session.properties) session.properties.set(name, properties.validateText(name, value));
    return undefined;
  } catch (e) {
    return toEngineError(e);
  }
}
