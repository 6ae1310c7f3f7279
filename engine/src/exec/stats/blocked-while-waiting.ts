// The items of a source that may make its reader wait (splits the coordinator has not sent yet):
// the waits count as the reading operator's blocked time.

import type { BlockedTime } from '../../columnar/cooperative.js';

export async function* blockedWhileWaiting<T>(items: Iterable<T> | AsyncIterable<T>, blocked: BlockedTime | undefined): AsyncIterable<T> {
  if (blocked === undefined || !(Symbol.asyncIterator in items)) {
    yield* items;
    return;
  }
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await blocked.blockedOn(iterator.next());
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}
