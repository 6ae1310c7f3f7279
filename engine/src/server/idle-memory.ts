// Gives memory back once the node has had no work for a while. V8 collects garbage when something
// allocates, so a node that just went idle keeps what its last queries left on its heap (hundreds of
// MB after a large aggregation) until the next query; and its worker threads keep their heaps until
// the pool stops them. With no query and no task left for `afterMillis`, the node collects its
// garbage itself (its caches stay).

export class IdleMemoryRelief {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly busy: () => boolean,
    private readonly afterMillis: number,
    private readonly relieve: () => void,
  ) {}

  /** Called whenever a query or task starts or ends. */
  workChanged(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.busy()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.busy()) this.relieve();
    }, this.afterMillis);
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
