// Reads a watch stream (?watch=1) from the API test server as a client does, line by line.
export interface WatchEvent<T = any> {
  type: string;
  object: T;
}

/** Collects events until `done` returns true for one of them (or the timeout passes). */
export async function collectEvents<T = any>(
  url: string,
  done: (e: WatchEvent<T>) => boolean,
  timeoutMs = 30000,
): Promise<WatchEvent<T>[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: WatchEvent<T>[] = [];
  try {
    const res = await fetch(url, { signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const event = JSON.parse(buffer.slice(0, nl)) as WatchEvent<T>;
        buffer = buffer.slice(nl + 1);
        events.push(event);
        if (done(event)) return events;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
    throw new Error(`watch ${url} did not see the awaited event within ${timeoutMs} ms (saw ${events.map((e) => e.type).join(', ')})`);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}
