// Label selectors (=, ==, !=, in, notin, exists, !exists) and field selectors (=, ==, !=) in the
// string syntax of list and watch requests, and the structured LabelSelector of specs.
import { badRequest } from './status.js';
import type { KubeObject } from './types.js';

type Requirement = { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!exists' };

export type Matcher = (obj: KubeObject) => boolean;

/** Splits on commas outside parentheses. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

function parseLabelTerm(term: string): Requirement {
  let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (m)
    return {
      key: m[1],
      op: m[2] as 'in' | 'notin',
      values: m[3]
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== ''),
    };
  m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(term);
  if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]] };
  m = /^(!?)([\w./-]+)$/.exec(term);
  if (m) return { key: m[2], op: m[1] ? '!exists' : 'exists' };
  throw badRequest(`unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt`);
}

function matches(labels: Record<string, string>, r: Requirement): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  switch (r.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case 'in':
      return has && r.values.includes(labels[r.key]);
    case 'notin':
      return !has || !r.values.includes(labels[r.key]);
  }
}

export function labelMatcher(selector: string | undefined): Matcher {
  if (!selector) return () => true;
  const reqs = splitTerms(selector).map(parseLabelTerm);
  return (obj) => reqs.every((r) => matches(obj.metadata.labels ?? {}, r));
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

const operators = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' } as const;

/** A structured selector (spec.selector); an empty one matches everything, as in apps/v1. */
export function structuredMatcher(selector: LabelSelector | undefined): (labels: Record<string, string>) => boolean {
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) reqs.push({ key, op: 'in', values: [value] });
  for (const e of selector?.matchExpressions ?? []) {
    const op = operators[e.operator];
    reqs.push(op === 'exists' || op === '!exists' ? { key: e.key, op } : { key: e.key, op, values: e.values ?? [] });
  }
  return (labels) => reqs.every((r) => matches(labels, r));
}

/** The string form (status.selector of a scale subresource). */
export function selectorString(selector: LabelSelector | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const op = operators[e.operator];
    if (op === 'exists') parts.push(e.key);
    else if (op === '!exists') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${op} (${(e.values ?? []).join(',')})`);
  }
  return parts.join(',');
}

function fieldValue(obj: KubeObject, path: string): string {
  let value: unknown = obj;
  for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  if (value === undefined || value === null) return '';
  return String(value);
}

/** Fields every kind supports, plus the ones the real server indexes for a few kinds. */
const extraFields: Record<string, string[]> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  ReplicaSet: ['status.replicas'],
};

export function fieldMatcher(selector: string | undefined, kind: string): Matcher {
  if (!selector) return () => true;
  const supported = new Set(['metadata.name', 'metadata.namespace', ...(extraFields[kind] ?? [])]);
  const tests = splitTerms(selector).map((term) => {
    const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    const [, field, op, value] = m;
    if (!supported.has(field)) throw badRequest(`field label not supported: ${field}`);
    return (obj: KubeObject) => (fieldValue(obj, field) === value) === (op !== '!=');
  });
  return (obj) => tests.every((t) => t(obj));
}
