// Types for the parts of the untyped `presto-client` package the tests use.

declare module 'presto-client' {
  export interface PrestoColumn {
    name: string;
    type: string;
  }
  export interface PrestoStats {
    state: string;
    [field: string]: unknown;
  }
  export interface PrestoError {
    message: string;
    errorName?: string;
    errorCode?: number;
    errorLocation?: { lineNumber: number; columnNumber: number };
    [field: string]: unknown;
  }
  export interface ClientOptions {
    host?: string;
    port?: number;
    user?: string;
    source?: string;
    catalog?: string;
    schema?: string;
    engine?: 'presto' | 'trino';
    checkInterval?: number;
    timeout?: number;
    /** Options of the https agent (ca, ...): the client speaks https when given. */
    ssl?: import('node:tls').SecureContextOptions;
    basic_auth?: { user: string; password: string };
    custom_auth?: string;
  }
  export interface ExecuteOptions {
    query: string;
    catalog?: string;
    schema?: string;
    session?: string;
    prepares?: string[];
    headers?: Record<string, string>;
    state?: (error: PrestoError | null, queryId: string, stats: PrestoStats) => void;
    columns?: (error: PrestoError | null, columns: PrestoColumn[]) => void;
    data?: (error: PrestoError | null, data: unknown[][], columns: PrestoColumn[], stats: PrestoStats) => void;
    success?: (error: PrestoError | null, stats: PrestoStats, info?: unknown) => void;
    error?: (error: PrestoError) => void;
    cancel?: () => boolean;
  }
  export class Client {
    constructor(options: ClientOptions);
    execute(options: ExecuteOptions): void;
    nodes(callback: (error: PrestoError | null, nodes: unknown[]) => void): void;
    query(queryId: string, callback: (error: PrestoError | null, info: Record<string, unknown>) => void): void;
    kill(queryId: string, callback?: (error: PrestoError | null) => void): void;
  }
}
