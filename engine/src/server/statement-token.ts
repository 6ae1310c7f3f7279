// Statement tokens: `<sequence>.<slug>`. The sequence orders a query's responses; the slug is 128
// random bits made when the query is submitted, so only the client that got the POST response
// (or a nextUri from it) can read or cancel the query through the statement resource.

import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface StatementToken {
  sequence: number;
  slug: string;
}

const TOKEN_PATTERN = /^(\d{1,15})\.([0-9a-f]{32})$/;

export function newSlug(): string {
  return randomBytes(16).toString('hex');
}

export function formatToken(sequence: number, slug: string): string {
  return `${sequence}.${slug}`;
}

/** The token in a statement path; undefined when it is malformed. */
export function parseToken(text: string): StatementToken | undefined {
  const match = TOKEN_PATTERN.exec(text);
  return match ? { sequence: Number(match[1]), slug: match[2]! } : undefined;
}

/** Compares in constant time, so response timing does not reveal how much of a guessed slug is right. */
export function slugMatches(expected: string, given: string): boolean {
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
