// The node's own state and the moves PUT /v1/info/state may make (DESIGN.md's table). A node starts
// INACTIVE and becomes ACTIVE once it serves; ISOLATING becomes ISOLATED, and SHUTTING_DOWN shuts the
// process down, as soon as the node has no active work left, or once the shutdown grace period
// ends, whichever comes first.

import { NODE_STATES, type NodeState } from '../internode/node-status.js';
import { HttpError } from '../errors/http-error.js';

/** The states a PUT may name. */
const TARGET_STATES = NODE_STATES.filter((s) => s !== 'INACTIVE');

/** Targets a PUT may move to from each state (staying put is handled separately). */
const MOVES: Record<NodeState, readonly NodeState[]> = {
  INACTIVE: ['SHUTTING_DOWN'],
  ACTIVE: ['ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'],
  ISOLATING: ['ACTIVE', 'ISOLATED', 'SHUTTING_DOWN'],
  ISOLATED: ['ACTIVE', 'ISOLATING', 'SHUTTING_DOWN'],
  SHUTTING_DOWN: [],
};

export interface ShutdownGracePeriod {
  /** Longest wait in SHUTTING_DOWN for the work to end. */
  millis: number;
  /** Called once, instead of `shutdown`, when the grace period ends with work left. */
  expired: () => void;
}

export class NodeStateMachine {
  private current: NodeState = 'INACTIVE';
  private shutdownStarted = false;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    /** Whether queries or tasks are still running on this node. */
    private readonly hasActiveWork: () => boolean,
    /** Called once, when SHUTTING_DOWN and no work is left. */
    private readonly shutdown: () => void,
    /** Without one, SHUTTING_DOWN waits for the work however long it takes. */
    private readonly gracePeriod?: ShutdownGracePeriod,
  ) {}

  get state(): NodeState {
    return this.current;
  }

  /** ACTIVE nodes take new work; ISOLATING, ISOLATED and SHUTTING_DOWN nodes take none. */
  get acceptsWork(): boolean {
    return this.current === 'ACTIVE';
  }

  /** The end of startup. */
  activate(): void {
    if (this.current === 'INACTIVE') this.current = 'ACTIVE';
  }

  /**
   * Applies a PUT /v1/info/state body; a disallowed or unknown target is a 400 and changes nothing.
   * Returns the state after the move: ISOLATING on a node without work is ISOLATED at once.
   */
  request(body: unknown): NodeState {
    if (typeof body !== 'string' || !(NODE_STATES as readonly string[]).includes(body)) {
      throw this.refusal(
        `Invalid node state: ${JSON.stringify(body) ?? 'undefined'}; expected one of ${TARGET_STATES.join(', ')}`,
        'INVALID_NODE_STATE',
      );
    }
    const target = body as NodeState;
    if (target === 'INACTIVE') throw this.refusal('Cannot move a node to INACTIVE', 'INVALID_NODE_STATE_TRANSITION');
    if (target === this.current) return this.current;
    if (!MOVES[this.current].includes(target))
      throw this.refusal(`Cannot move node from ${this.current} to ${target}`, 'INVALID_NODE_STATE_TRANSITION');
    this.current = target;
    if (target === 'SHUTTING_DOWN') this.startGracePeriod();
    this.workChanged();
    return this.current;
  }

  /** A refused PUT: 400 naming the current state and the moves allowed from it. */
  refusal(reason: string, errorName: string): HttpError {
    const allowed = MOVES[this.current];
    return new HttpError(400, `${reason}; allowed from ${this.current}: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`, errorName, {
      currentState: this.current,
      allowedStates: [...allowed],
    });
  }

  /** The 503 for new work (a statement, a task) on a node that is not ACTIVE. */
  notAcceptingWork(work: string): HttpError {
    const state = this.current;
    if (state === 'SHUTTING_DOWN')
      return new HttpError(503, `Server is shutting down and accepts no new ${work}; the running ones finish`, 'SERVER_SHUTTING_DOWN');
    if (state === 'INACTIVE') return new HttpError(503, `Server is starting up and accepts no ${work} yet`, 'SERVER_STARTING_UP');
    return new HttpError(503, `Node is ${state} and accepts no new ${work}`, 'NODE_ISOLATED');
  }

  /** SIGTERM: the same graceful shutdown as a PUT of SHUTTING_DOWN, from any state. */
  beginShutdown(): void {
    this.request('SHUTTING_DOWN');
  }

  /** Re-checks the automatic moves; call whenever work on the node ends. */
  workChanged(): void {
    if (this.hasActiveWork()) return;
    if (this.current === 'ISOLATING') this.current = 'ISOLATED';
    if (this.current === 'SHUTTING_DOWN' && !this.shutdownStarted) {
      this.shutdownStarted = true;
      clearTimeout(this.graceTimer);
      // Let the response to the request that got us here go out first.
      setImmediate(this.shutdown);
    }
  }

  private startGracePeriod(): void {
    const grace = this.gracePeriod;
    if (grace === undefined) return;
    this.graceTimer = setTimeout(() => {
      if (this.shutdownStarted) return;
      this.shutdownStarted = true;
      grace.expired();
    }, grace.millis).unref();
  }
}
