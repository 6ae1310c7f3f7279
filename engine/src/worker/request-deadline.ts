// A request to another node that cannot wait forever: it is given a signal that aborts when any of
// the caller's signals does, or when its time is up. Not AbortSignal.any([..., AbortSignal.timeout(n)]):
// there, nothing holds the timeout signal strongly, and once the garbage collector took it, it never
// fires — a fetch to a node stopped with SIGSTOP then waited for good (Node 20; the tests in
// test/cluster/request-deadline.test.ts collect garbage while such requests wait).

/** Runs `request` with a signal that aborts with a TimeoutError after `timeoutMillis`, or with the reason of the first of `signals` to abort. */
export async function withDeadline<T>(
  signals: readonly AbortSignal[],
  timeoutMillis: number,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMillis} ms`, 'TimeoutError')), timeoutMillis);
  const follow = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const signal of signals) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', follow, { once: true });
  }
  try {
    return await request(controller.signal);
  } finally {
    clearTimeout(timer);
    for (const signal of signals) signal.removeEventListener('abort', follow);
  }
}
