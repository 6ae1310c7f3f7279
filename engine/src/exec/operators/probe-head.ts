// Reading a join's probe side ahead of its build side, to learn whether it is small: then the join
// hashes the probe rows instead of the build side's (inner-join-probe-first, mark-join-probe-first).
// Past PROBE_FIRST_MAX_ROWS it stops reading, and the join runs as usual over the rows read ahead
// followed by the rest.

import { estimatedPageBytes, type Page } from '../../spi/page.js';
import type { JoinLookup } from '../hash/join-lookup.js';
import { concatPagesCooperatively } from './concat-cooperatively.js';
import type { HashJoinSpec } from './hash-join.js';
import { buildJoinLookup } from './join-build-side.js';
import type { OperatorContext, PageStream } from './operator.js';
import { throwIfCanceled, type MemoryReservation } from './operator-support.js';

const EMPTY_PLACEHOLDER: Page = { rowCount: 0, columns: [] };

/** Probe rows up to which the probe side counts as small (some megabytes; read ahead, then hashed). */
export const PROBE_FIRST_MAX_ROWS = 1 << 19;

/** A small probe side read whole (`pages`, `rest` null), or else `rest`: the whole probe side again, the pages read ahead first. */
export interface ProbeHead {
  pages: Page[];
  rest: PageStream | null;
}

export async function readProbeHead(ctx: OperatorContext, probe: PageStream, reservation: MemoryReservation): Promise<ProbeHead> {
  const iterator = probe[Symbol.asyncIterator]();
  const pages: Page[] = [];
  const bytes: number[] = [];
  let rows = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return { pages, rest: null };
    throwIfCanceled(ctx);
    if (next.value.rowCount === 0) continue;
    pages.push(next.value);
    bytes.push(estimatedPageBytes(next.value));
    reservation.add(bytes[bytes.length - 1]);
    rows += next.value.rowCount;
    if (rows > PROBE_FIRST_MAX_ROWS) break;
  }
  const rest = async function* (): PageStream {
    // The pages read ahead go first, each released (and no longer held here) once passed on.
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i];
      pages[i] = EMPTY_PLACEHOLDER;
      yield page;
      reservation.add(-bytes[i]);
    }
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  };
  return { pages: [], rest: rest() };
}

/** A small probe side as one page, and the lookup table over its keys. */
export interface HashedProbe {
  page: Page;
  lookup: JoinLookup;
}

export async function hashProbeSide(ctx: OperatorContext, pages: readonly Page[], spec: HashJoinSpec, reservation: MemoryReservation): Promise<HashedProbe> {
  const page = pages.length === 1 ? pages[0] : await concatPagesCooperatively(spec.probeTypes, [...pages], ctx);
  const lookup = await buildJoinLookup(
    spec.probeKeys.map((c) => spec.probeTypes[c]),
    spec.probeKeys.map((c) => page.columns[c]),
    page.rowCount,
    ctx,
    reservation,
  );
  return { page, lookup };
}
