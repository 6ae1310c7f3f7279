// Dynamic filters across stages (optimizer/dynamic-filters.ts, remote filters): a task running the
// join publishes each remote filter's domain once its build is complete, and its task info shows
// how many it has published (dynamicFiltersVersion). The coordinator's long poll names the version it
// has seen (X-Engine-Dynamic-Filters-Since), and the answer carries the domains published after it:
// the poll that a publication wakes brings them, without a second round trip to a node busy with the
// probe that follows the build. An info that shows the version moved without them has them fetched
// (GET /v1/task/{taskId}/dynamic-filters?since=N, as Trino's coordinator fetches a task's domains by
// version; never in every info). The coordinator unions them over the join's tasks and sends the
// union to the scan's tasks in a task update. A domain is a KeyDomain (exec/dynamic-filters/
// key-domain.ts): a range, and the values themselves while they are few, or past that a bitmap of
// the integer keys when it is small enough (dynamic_filter_remote_key_bitmap_max_size), its bytes
// base64 (a $bytes tag: one native encoding, no per-key work on either side). The fetch answer is
// plain JSON with its values tagged (bigints, bytes); the task update is tagged JSON throughout.

import type { ColumnDomain } from '../spi/connector.js';
import { shapeCheck } from '../spi/json-shape.js';
import { fromTaggedValue, PACKED_INT64S_SCHEMA, toTaggedJson } from '../sql/planner/plan-json.js';
import { ProtocolError } from './protocol-error.js';
import { keyBitmapProblem } from '../exec/dynamic-filters/key-bitmap.js';

/** One dynamic filter's domain, by the filter's id (df_N). */
export interface DynamicFilterDomain {
  id: string;
  domain: Omit<ColumnDomain, 'column'>;
}

/** Filters one message may carry: one per join key of a fragment, far fewer in practice. */
const MAX_FILTERS = 1_000;

const BOUND = { type: 'object', required: ['value', 'inclusive'], properties: { value: {}, inclusive: { type: 'boolean' } } };
/** A key bitmap (spi/connector.ts KeyBitmap): its bits are bytes (tagged base64 until decoded), checked by keyBitmapsProblem. */
const KEYS = {
  type: 'object',
  required: ['base', 'size', 'bits'],
  additionalProperties: false,
  properties: { base: { type: 'integer' }, size: { type: 'integer' }, bits: {} },
};

/** The JSON Schema of a list of domains whose values are `values` (any scalars). */
function domainsSchema(values: object): object {
  return {
    type: 'array',
    maxItems: MAX_FILTERS,
    items: {
      type: 'object',
      required: ['id', 'domain'],
      properties: {
        id: { type: 'string' },
        domain: { type: 'object', properties: { low: BOUND, high: BOUND, values, keys: KEYS } },
      },
    },
  };
}

/** The JSON Schema of a list of domains as decoded (a task request is checked once its tags are). */
export const DYNAMIC_FILTER_DOMAINS_SCHEMA = domainsSchema({ type: 'array' });

/**
 * The domains a task published after version `since` (GET /v1/task/{taskId}/dynamic-filters):
 * a task publishes each remote filter once, in order, so its version is how many it has published.
 */
export interface VersionedDynamicFilterDomains {
  version: number;
  domains: DynamicFilterDomain[];
}

/** The JSON Schema of a fetch answer, which a task info may also carry (task-info-codec.ts). */
export const VERSIONED_DOMAINS_SCHEMA = {
  type: 'object',
  required: ['version', 'domains'],
  // Checked with its tags: the values may be packed (plan-json.ts), and are checked again once unpacked.
  properties: { version: { type: 'integer', minimum: 0 }, domains: domainsSchema({ anyOf: [{ type: 'array' }, PACKED_INT64S_SCHEMA] }) },
};

const checkVersioned = shapeCheck(VERSIONED_DOMAINS_SCHEMA);

/**
 * The JSON text of a fetch answer (or of a task info's field): bigint values and key bitmaps tagged.
 * Written in one pass: through a JSON value first, a bitmap's base64 was written, parsed and written
 * again (measured: 36 ms of CPU for a 750 KB bitmap, against 11 ms in one pass).
 */
export function encodeVersionedDomains(answer: VersionedDynamicFilterDomains): string {
  return toTaggedJson(answer);
}

/** The domains of a tagged value (encodeVersionedDomains wrote it), for a value VERSIONED_DOMAINS_SCHEMA checked; a ProtocolError for a malformed packed list. */
export function untaggedVersionedDomains(value: unknown): VersionedDynamicFilterDomains {
  const answer = fromTaggedValue(value) as VersionedDynamicFilterDomains;
  for (const { id, domain } of answer.domains) {
    if (domain.values !== undefined && !Array.isArray(domain.values))
      throw new ProtocolError(`Invalid dynamic filter domains: the values of ${id} are not a list`);
  }
  checkKeyBitmaps(answer.domains);
  return answer;
}

/** Throws a ProtocolError naming the first domain whose key bitmap is malformed (decoded: its bits a byte array). */
export function checkKeyBitmaps(domains: readonly DynamicFilterDomain[]): void {
  for (const { id, domain } of domains) {
    const problem = domain.keys === undefined ? undefined : keyBitmapProblem(domain.keys);
    if (problem !== undefined) throw new ProtocolError(`Invalid dynamic filter domains: the key bitmap of ${id}: ${problem}`);
  }
}

/** Reads a fetch answer another node wrote; a ProtocolError names what is wrong with a malformed one. */
export function decodeVersionedDomains(text: string): VersionedDynamicFilterDomains {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError(`Invalid dynamic filter domains: not JSON (${(e as Error).message}): ${text.slice(0, 200)}`);
  }
  const problem = checkVersioned(value);
  if (problem !== undefined) throw new ProtocolError(`Invalid dynamic filter domains: ${problem}`);
  return untaggedVersionedDomains(value);
}
