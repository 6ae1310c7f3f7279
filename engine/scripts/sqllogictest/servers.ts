// The servers a sqllogictest run sends its statements to, and what happens when a statement runs past
// its deadline: if every node still answers GET /v1/info the statement just failed; if one does not
// (its event loop held, or the process stopped), the run cannot go on with them. Servers the run
// started are then killed (SIGKILL to each process group: a held event loop never runs a SIGTERM
// handler) and fresh ones started; an outside server (--server) is only reported.

import type { EngineServerProcess } from './server-process.js';

/** How long a node has to answer GET /v1/info after a statement's deadline before it counts as hung. */
export const PROBE_TIMEOUT_MILLIS = 5000;

/** The servers as one file's statements see them: where to send them, and which set of servers that is. */
export interface ServerGeneration {
  url: string;
  /** Grows each time the servers are replaced: a file that began on an older one has lost its schema. */
  generation: number;
}

export interface SqlLogicTestServers {
  current(): ServerGeneration;
  /** Every node's URL, the coordinator first. */
  urls(): string[];
  /**
   * After a statement on `generation` ran past its deadline: undefined when every node answers (the
   * statement merely timed out); otherwise what was found and done, once the servers were replaced
   * (callers on the same generation share one replacement).
   */
  afterDeadline(generation: number): Promise<string | undefined>;
  /** Stops the servers this run started (none for an outside server). */
  stop(): Promise<void>;
}

/** A server this run did not start: a hang is reported, nothing is restarted. */
export function outsideServer(url: string): SqlLogicTestServers {
  return {
    current: () => ({ url, generation: 0 }),
    urls: () => [url],
    afterDeadline: async () => {
      const silent = await silentNode([url]);
      return silent === undefined ? undefined : `${notAnswering(silent)}; not started by this run, so not restarted`;
    },
    stop: async () => undefined,
  };
}

/**
 * Servers this run started with `start` (the coordinator first: statements go to it), replaced by
 * fresh ones from `start` when one hangs.
 */
export class StartedServers implements SqlLogicTestServers {
  private generation = 0;
  private replacing: Promise<string> | undefined;
  /** Killed synchronously should the runner exit without stopping them (they lead their own process groups). */
  private readonly killAtExit = (): void => {
    for (const node of this.nodes) if (node.pid !== undefined) killGroup(node.pid);
  };

  private constructor(
    private nodes: EngineServerProcess[],
    private readonly start: () => Promise<EngineServerProcess[]>,
  ) {
    process.on('exit', this.killAtExit);
  }

  static async start(start: () => Promise<EngineServerProcess[]>): Promise<StartedServers> {
    return new StartedServers(await start(), start);
  }

  current(): ServerGeneration {
    return { url: this.nodes[0].url, generation: this.generation };
  }

  urls(): string[] {
    return this.nodes.map((n) => n.url);
  }

  /** The process ids of the current nodes, the coordinator first. */
  pids(): (number | undefined)[] {
    return this.nodes.map((n) => n.pid);
  }

  async afterDeadline(generation: number): Promise<string | undefined> {
    if (generation < this.generation) return 'the servers were replaced meanwhile, after a hang';
    if (this.replacing !== undefined) return this.replacing;
    const silent = await silentNode(this.nodes.map((n) => n.url));
    if (silent === undefined) return undefined;
    // Another caller may have begun replacing them while this one probed.
    if (generation < this.generation || this.replacing !== undefined) return this.replacing ?? 'the servers were replaced meanwhile';
    const replacing = this.replace(silent);
    this.replacing = replacing;
    try {
      return await replacing;
    } finally {
      this.replacing = undefined;
    }
  }

  async stop(): Promise<void> {
    process.off('exit', this.killAtExit);
    const nodes = this.nodes;
    this.nodes = [];
    await Promise.all(nodes.map((n) => n.stop()));
  }

  private async replace(silentUrl: string): Promise<string> {
    const killed = this.nodes.map((n) => `${n.url} (pid ${n.pid})`).join(', ');
    await Promise.all(this.nodes.map((n) => n.kill()));
    this.nodes = await this.start();
    this.generation++;
    return `${notAnswering(silentUrl)}: killed ${killed} and started fresh servers`;
  }
}

function notAnswering(url: string): string {
  return `${url} did not answer GET /v1/info within ${PROBE_TIMEOUT_MILLIS / 1000} s`;
}

/** The first of `urls` that does not answer GET /v1/info in time, or undefined. */
async function silentNode(urls: readonly string[]): Promise<string | undefined> {
  const answers = await Promise.all(urls.map((url) => answersInfo(url)));
  return urls.find((_, i) => !answers[i]);
}

async function answersInfo(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/v1/info', url), { signal: AbortSignal.timeout(PROBE_TIMEOUT_MILLIS) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
