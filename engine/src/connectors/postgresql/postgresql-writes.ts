// Writes of the postgresql connector, as Trino's JDBC connectors make them: the write begins by
// creating a table of its own beside the target (`tmp_engine_<random>`), each writer (on any node)
// COPYs its rows into it on a connection of its own, and the commit either renames it to the new
// table (CREATE TABLE AS) or moves its rows into the target and drops it, in one transaction
// (INSERT). An abort drops it: a failed or cancelled write leaves the database as it was.

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { EngineError } from '../../errors/engine-error.js';
import type { TableMetadata } from '../../spi/connector.js';
import { shapeCheck } from '../../spi/json-shape.js';
import type { Page } from '../../columnar/page.js';
import type { ConnectorPageSink, WriteFragment } from '../../spi/table-write.js';
import { typeName } from '../../types/types.js';
import type { PostgresColumn } from './column-mapping.js';
import { type BooleanTarget, copyHeader, copyTrailer, encodePage } from './copy-encoder.js';
import { plainJsonColumns, writeTarget } from './write-targets.js';
import type { PostgresClient } from './postgresql-client.js';
import { postgresTypeName, qualifiedTable, quoteIdentifier } from './sql-text.js';

export interface PostgresWriteHandle {
  catalog: string;
  schema: string;
  table: string;
  kind: 'create' | 'insert';
  /** The table the writers COPY into, in the target's schema. */
  temporaryTable: string;
  /** Per table column (in table order): how its values are written (copy-encoder.ts's targets), or 'nulls' for a column the engine cannot write (a type it reads as text) and that may only take NULLs. */
  columns: { name: string; write: BooleanTarget | 'nulls' }[];
}

const checkHandleShape = shapeCheck({
  type: 'object',
  required: ['catalog', 'schema', 'table', 'kind', 'temporaryTable', 'columns'],
  properties: {
    catalog: { type: 'string' },
    schema: { type: 'string' },
    table: { type: 'string' },
    kind: { enum: ['create', 'insert'] },
    temporaryTable: { type: 'string', pattern: '^tmp_engine_[0-9a-f]{16}$' },
    columns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'write'],
        properties: { name: { type: 'string' }, write: { enum: ['boolean', 'bit', 'json', 'nulls'] } },
      },
    },
  },
  additionalProperties: false,
});

export function checkPostgresWriteHandle(handle: unknown, catalog: string): string | undefined {
  const problem = checkHandleShape(handle);
  if (problem !== undefined) return problem;
  const other = (handle as PostgresWriteHandle).catalog;
  return other === catalog ? undefined : `a write of catalog '${other}', not '${catalog}'`;
}

/** `CREATE TABLE` column definitions of a new table. */
export function columnDefinitions(table: TableMetadata): string {
  return table.columns
    .map((c) => {
      const type = postgresTypeName(c.type);
      if (type === undefined)
        throw new EngineError('NOT_SUPPORTED', `Column '${c.name}': type ${typeName(c.type)} cannot be stored in PostgreSQL`);
      return `${quoteIdentifier(c.name)} ${type}${c.nullable === false ? ' NOT NULL' : ''}`;
    })
    .join(', ');
}

export async function beginCreateTable(client: PostgresClient, table: TableMetadata): Promise<PostgresWriteHandle> {
  const handle = newHandle(
    client.catalog,
    table.schema,
    table.name,
    'create',
    table.columns.map((c) => ({ name: c.name, write: 'boolean' as const })),
  );
  await client.query(`CREATE TABLE ${temporary(handle)} (${columnDefinitions(table)})`);
  return handle;
}

/** `columns`: the target's, as the connector reads them. */
export async function beginInsert(
  client: PostgresClient,
  schema: string,
  table: string,
  columns: readonly PostgresColumn[],
): Promise<PostgresWriteHandle> {
  const plainJson = columns.some((c) => c.type.kind === 'json') ? await plainJsonColumns(client, schema, table) : new Set<string>();
  const written = columns.map((c) => ({ name: c.name, write: writeTarget(c, plainJson) }));
  const handle = newHandle(client.catalog, schema, table, 'insert', written);
  // Only the shape of the target: its rows get there at the commit.
  await client.query(`CREATE TABLE ${temporary(handle)} (LIKE ${qualifiedTable(schema, table)})`);
  return handle;
}

export async function finishCreateTable(client: PostgresClient, handle: PostgresWriteHandle): Promise<void> {
  await client.query(`ALTER TABLE ${temporary(handle)} RENAME TO ${quoteIdentifier(handle.table)}`);
}

export async function finishInsert(client: PostgresClient, handle: PostgresWriteHandle): Promise<void> {
  const columns = writtenColumns(handle)
    .map(({ name }) => quoteIdentifier(name))
    .join(', ');
  await client.withConnection(async (connection) => {
    await connection.query('BEGIN');
    await connection.query(
      `INSERT INTO ${qualifiedTable(handle.schema, handle.table)} (${columns}) SELECT ${columns} FROM ${temporary(handle)}`,
    );
    await connection.query(`DROP TABLE ${temporary(handle)}`);
    await connection.query('COMMIT');
  });
}

export async function abortWrite(client: PostgresClient, handle: PostgresWriteHandle): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${temporary(handle)}`);
}

/** One writer: a binary COPY into the write's table, on a connection of its own, committed when it finishes. */
export class PostgresPageSink implements ConnectorPageSink {
  private copy: Promise<{ connection: pg.PoolClient; stream: CopyStreamQuery }> | undefined;
  private failure: unknown;
  private rows = 0;
  private readonly written: { index: number; write: BooleanTarget }[];

  constructor(
    private readonly client: PostgresClient,
    private readonly handle: PostgresWriteHandle,
  ) {
    this.written = handle.columns.flatMap((c, index) => (c.write === 'nulls' ? [] : [{ index, write: c.write }]));
  }

  async appendPage(page: Page): Promise<void> {
    this.handle.columns.forEach((c, i) => {
      const values = page.columns[i];
      if (c.write === 'nulls' && (values.nulls === null || values.nulls.includes(0))) {
        throw new EngineError(
          'NOT_SUPPORTED',
          `Column '${c.name}' of '${this.handle.catalog}.${this.handle.schema}.${this.handle.table}' has a PostgreSQL type the engine cannot write`,
        );
      }
    });
    const { stream } = await this.open();
    const bytes = encodePage(
      { rowCount: page.rowCount, columns: this.written.map(({ index }) => page.columns[index]) },
      this.written.map((c) => c.write),
    );
    await this.send(stream, bytes);
    this.rows += page.rowCount;
  }

  async finish(): Promise<WriteFragment[]> {
    if (this.copy !== undefined) {
      const { connection, stream } = await this.copy;
      try {
        this.throwIfFailed();
        stream.end(copyTrailer());
        await finished(stream);
      } catch (e) {
        connection.release(true);
        throw this.client.error(e);
      }
      connection.release();
    }
    return [{ rows: this.rows }];
  }

  async abort(): Promise<void> {
    if (this.copy === undefined) return;
    const { connection, stream } = await this.copy.catch(() => ({ connection: undefined, stream: undefined }));
    // Closing the connection ends the COPY on the server unfinished: none of its rows stay.
    stream?.destroy();
    connection?.release(true);
  }

  private open(): Promise<{ connection: pg.PoolClient; stream: CopyStreamQuery }> {
    this.copy ??= (async () => {
      const connection = await this.client.connect();
      const columns = this.written.map(({ index }) => quoteIdentifier(this.handle.columns[index].name)).join(', ');
      const stream = connection.query(copyFrom(`COPY ${temporary(this.handle)} (${columns}) FROM STDIN (FORMAT binary)`));
      stream.on('error', (e: unknown) => (this.failure ??= e));
      await this.send(stream, copyHeader());
      return { connection, stream };
    })();
    return this.copy;
  }

  private async send(stream: CopyStreamQuery, bytes: Buffer): Promise<void> {
    this.throwIfFailed();
    try {
      if (!stream.write(bytes)) await once(stream, 'drain');
    } catch (e) {
      throw this.client.error(e);
    }
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.client.error(this.failure);
  }
}

function newHandle(
  catalog: string,
  schema: string,
  table: string,
  kind: PostgresWriteHandle['kind'],
  columns: PostgresWriteHandle['columns'],
): PostgresWriteHandle {
  return { catalog, schema, table, kind, temporaryTable: `tmp_engine_${randomBytes(8).toString('hex')}`, columns };
}

function temporary(handle: PostgresWriteHandle): string {
  return qualifiedTable(handle.schema, handle.temporaryTable);
}

function writtenColumns(handle: PostgresWriteHandle): { name: string }[] {
  return handle.columns.filter((c) => c.write !== 'nulls');
}
