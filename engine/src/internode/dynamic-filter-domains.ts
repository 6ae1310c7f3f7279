// Dynamic filters across stages (optimizer/dynamic-filters.ts, remote filters): a task running the
// join reports each remote filter's domain in its task info once its build is complete; the
// coordinator unions them over the join's tasks and sends the union to the scan's tasks in a task
// update. A domain is a KeyDomain (exec/dynamic-filters/key-domain.ts): a range, and the values
// themselves while they are few. The task info is plain JSON, so there its values are tagged
// (bigints); the task update is tagged JSON throughout.

import type { ColumnDomain } from '../spi/connector.js';
import { fromTaggedValue, toTaggedValue } from '../sql/planner/plan-json.js';

/** One dynamic filter's domain, by the filter's id (df_N). */
export interface DynamicFilterDomain {
  id: string;
  domain: Omit<ColumnDomain, 'column'>;
}

/** Filters one message may carry: one per join key of a fragment, far fewer in practice. */
const MAX_FILTERS = 1_000;

const BOUND = { type: 'object', required: ['value', 'inclusive'], properties: { value: {}, inclusive: { type: 'boolean' } } };

/** The JSON Schema of a list of domains (their values any scalar, as tagged or decoded). */
export const DYNAMIC_FILTER_DOMAINS_SCHEMA = {
  type: 'array',
  maxItems: MAX_FILTERS,
  items: {
    type: 'object',
    required: ['id', 'domain'],
    properties: {
      id: { type: 'string' },
      domain: { type: 'object', properties: { low: BOUND, high: BOUND, values: { type: 'array' } } },
    },
  },
};

/** The domains as a task info writes them: bigint values tagged. */
export function dynamicFilterDomainsJson(domains: readonly DynamicFilterDomain[]): unknown {
  return toTaggedValue(domains);
}

/** Domains a task info carries, checked against DYNAMIC_FILTER_DOMAINS_SCHEMA already. */
export function readDynamicFilterDomains(json: unknown): DynamicFilterDomain[] {
  return fromTaggedValue(json) as DynamicFilterDomain[];
}
