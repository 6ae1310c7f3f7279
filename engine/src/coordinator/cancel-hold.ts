// Holds cancels back while work runs that a cancel must not cut short: a write's commit. A commit
// that a cancel interrupted could still land in the connector (PostgreSQL commits its transaction,
// the lake's metastore file is written) while the client is told the query failed. So a cancel, or
// any failure from outside, that arrives meanwhile waits for the work: if the work fails, it takes
// effect then; if the work succeeds, it came too late (the write landed) and is dropped.

export class CancelHold {
  private holding = 0;
  private deferred: (() => void) | undefined;
  private workFailed = false;

  /** Runs `cancel` now, or once the held work ended — unless that work succeeded. */
  request(cancel: () => void): void {
    if (this.holding === 0) cancel();
    else this.deferred ??= cancel;
  }

  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.holding++;
    try {
      return await work();
    } catch (e) {
      this.workFailed = true;
      throw e;
    } finally {
      this.holding--;
      if (this.holding === 0) {
        const deferred = this.deferred;
        const failed = this.workFailed;
        this.deferred = undefined;
        this.workFailed = false;
        if (deferred !== undefined && failed) deferred();
      }
    }
  }
}
