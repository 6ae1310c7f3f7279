// The client protocol over raw fetch, for tests that look at every response and header.

export interface StatementColumn {
  name: string;
  type: string;
  typeSignature: { rawType: string; arguments: Array<{ kind: string; value: unknown }> };
}

export interface StatementResponse {
  id: string;
  infoUri: string;
  partialCancelUri?: string;
  nextUri?: string;
  columns?: StatementColumn[];
  data?: unknown[][];
  stats: Record<string, unknown> & { state: string; rootStage: Record<string, unknown> };
  error?: {
    message: string;
    errorCode: number;
    errorName: string;
    errorType: string;
    errorLocation?: { lineNumber: number; columnNumber: number };
    failureInfo: {
      type: string;
      message: string;
      stack: string[];
      suppressed: unknown[];
      errorLocation?: { lineNumber: number; columnNumber: number };
    };
  };
  warnings: unknown[];
  updateType?: string;
  updateCount?: number;
}

export interface Exchange {
  status: number;
  headers: Headers;
  body: StatementResponse;
}

export interface StatementRun {
  exchanges: Exchange[];
  final: StatementResponse;
  columns?: StatementColumn[];
  rows: unknown[][];
}

export async function postStatement(base: string, sql: string | Uint8Array, headers: Record<string, string> = {}): Promise<Exchange> {
  const response = await fetch(`${base}/v1/statement`, {
    method: 'POST',
    body: typeof sql === 'string' ? sql : new Blob([new Uint8Array(sql)]),
    headers,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as StatementResponse };
}

export async function getJson<T>(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: T }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** Follows nextUri from a first exchange until the final response. */
export async function follow(first: Exchange, headers: Record<string, string> = {}): Promise<StatementRun> {
  const exchanges = [first];
  const rows: unknown[][] = [];
  let current = first.body;
  let columns = current.columns;
  while (current.nextUri) {
    const response = await fetch(current.nextUri, { headers });
    if (response.status !== 200) throw new Error(`GET ${current.nextUri} answered ${response.status}: ${await response.text()}`);
    current = (await response.json()) as StatementResponse;
    exchanges.push({ status: response.status, headers: response.headers, body: current });
    columns ??= current.columns;
    if (current.data) rows.push(...current.data);
  }
  return { exchanges, final: current, columns, rows };
}

export async function runStatement(base: string, sql: string, headers: Record<string, string> = {}): Promise<StatementRun> {
  const first = await postStatement(base, sql, headers);
  if (first.status !== 200) throw new Error(`POST /v1/statement answered ${first.status}: ${JSON.stringify(first.body)}`);
  return follow(first, headers);
}

/** Runs a statement that must succeed; returns its rows. */
export async function query(base: string, sql: string, headers: Record<string, string> = {}): Promise<unknown[][]> {
  const run = await runStatement(base, sql, headers);
  if (run.final.error) throw new Error(`${sql} failed: ${run.final.error.message}`);
  return run.rows;
}
