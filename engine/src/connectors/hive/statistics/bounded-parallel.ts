// Runs an async step over the items of a lazy listing with at most `limit` steps in flight, taking
// the next item only when a step finishes, so that a listing of very many items is never held whole.

export async function forEachBounded<T>(items: AsyncIterable<T>, limit: number, step: (item: T) => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for await (const item of items) {
    if (failure !== undefined) break;
    const run: Promise<void> = step(item).then(
      () => void running.delete(run),
      (error: unknown) => {
        running.delete(run);
        failure ??= { error };
      },
    );
    running.add(run);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure !== undefined) throw failure.error;
}
