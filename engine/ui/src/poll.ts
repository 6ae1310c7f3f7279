// Reads an endpoint now and again every `intervalMillis` while the tab is visible: a hidden tab
// sends no requests (it reads again as soon as it is shown). A request still running when the next
// one is due is not doubled, and one made for an earlier URL is dropped when the URL changes.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';

export interface Polled<T> {
  data: T | undefined;
  error: Error | undefined;
  /** Reads now (after an action). */
  refresh: () => void;
}

/** `path` undefined: nothing is read. `active` false: read once, no refreshes (a finished query). */
export function usePoll<T>(path: string | undefined, intervalMillis: number, active = true): Polled<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const generation = useRef(0);
  const inFlight = useRef(false);

  const read = useCallback(() => {
    if (path === undefined || inFlight.current) return;
    const mine = generation.current;
    inFlight.current = true;
    api<T>(path)
      .then((answer) => {
        if (mine !== generation.current) return;
        setData(answer);
        setError(undefined);
      })
      .catch((e: unknown) => mine === generation.current && setError(e as Error))
      .finally(() => (inFlight.current = false));
  }, [path]);

  useEffect(() => {
    generation.current++;
    inFlight.current = false;
    read();
    if (!active) return undefined;
    const timer = setInterval(() => document.visibilityState === 'visible' && read(), intervalMillis);
    const onVisible = () => document.visibilityState === 'visible' && read();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [read, intervalMillis, active]);

  return { data, error, refresh: read };
}
