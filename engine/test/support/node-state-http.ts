// Node-state helpers shared by the tests that isolate and shut down a real server process.

import { expect } from 'chai';
import type { ServerProcess } from './server-process.js';
import { follow, getJson, postStatement, type Exchange } from './statement-http.js';

/**
 * PUT /v1/info/state with a raw body, sent as application/json unless `contentType` says otherwise
 * (null: no Content-Type at all); answers the status and the parsed answer.
 */
export async function putState(
  base: string,
  body: string,
  contentType: string | null = 'application/json',
): Promise<{ status: number; body: unknown }> {
  // Bytes, unlike a string, get no Content-Type from fetch.
  const init = contentType === null ? { body: new TextEncoder().encode(body) } : { body, headers: { 'Content-Type': contentType } };
  const response = await fetch(`${base}/v1/info/state`, { method: 'PUT', ...init });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

export async function nodeState(base: string): Promise<string> {
  return (await getJson<string>(`${base}/v1/info/state`)).body;
}

export async function waitForNodeState(base: string, expected: string): Promise<void> {
  while ((await nodeState(base)) !== expected) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Submits a statement (its first response only), so that it stays active until its client reads it. */
export async function openQuery(base: string, sql: string): Promise<Exchange> {
  const first = await postStatement(base, sql);
  expect(first.status).to.equal(200);
  return first;
}

/**
 * A graceful shutdown in progress: new statements get 503, the open query still delivers all its
 * `rows`, then the process exits with code 0 after logging that it stopped.
 */
export async function expectGracefulExit(server: ServerProcess, open: Exchange, rows: number): Promise<void> {
  const refused = await postStatement(server.uri, 'SELECT 1');
  expect(refused.status).to.equal(503);
  expect((refused.body as unknown as { error: { errorName: string } }).error.errorName).to.equal('SERVER_SHUTTING_DOWN');
  const run = await follow(open);
  expect(run.final.stats.state).to.equal('FINISHED');
  expect(run.rows).to.have.length(rows);
  expect(await server.waitForExit()).to.equal(0);
  expect(server.logs.some((l) => l.msg === 'server stopped')).to.equal(true);
}
