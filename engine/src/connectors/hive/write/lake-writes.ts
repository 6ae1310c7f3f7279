// The lake connector's side of a write (spi/table-write.ts): begun on the coordinator with a write
// handle; a page sink per writer on any node, writing files named by the write id into the table's
// folder; the commit, on the coordinator, adds the write id to the table's commit log with the files
// of all writers (for CREATE TABLE AS, after writing the table's metastore entry: the table did not
// exist before); the abort deletes the write id's files.

import { EngineError } from '../../../errors/engine-error.js';
import type { TableMetadata } from '../../../spi/connector.js';
import type { Session } from '../../../spi/session.js';
import type { FileSystem } from '../file-system/file-system.js';
import type { FileSystems } from '../file-system/file-systems.js';
import { newLakeTable } from '../lake-tables.js';
import type { FileMetastore } from '../metastore/file-metastore.js';
import type { LakeTable } from '../metastore/lake-table.js';
import { abortWriteFiles, commitFragments } from './commit.js';
import { LakePageSink } from './page-sink.js';
import { checkWriteHandleShape, writeHandle, type WriteFragment, type WriteHandle } from './write-handle.js';

export class LakeWrites {
  constructor(
    private readonly catalog: string,
    private readonly metastore: FileMetastore,
    private readonly fileSystems: FileSystems,
    private readonly metadataFs: () => FileSystem,
  ) {}

  async beginCreateTable(session: Session, metadata: TableMetadata): Promise<WriteHandle> {
    const schema = await this.metastore.getSchema(metadata.schema);
    if (schema === undefined) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.catalog}.${metadata.schema}' does not exist`);
    const table = await newLakeTable(metadata, schema, this.metastore, this.fileSystems, session.user);
    return { ...this.handle(session, table), create: table };
  }

  async beginInsert(session: Session, table: LakeTable): Promise<WriteHandle> {
    return this.handle(session, table);
  }

  checkWriteHandle(handle: unknown): string | undefined {
    const problem = checkWriteHandleShape(handle);
    if (problem !== undefined) return problem;
    const { catalog } = handle as WriteHandle;
    return catalog === this.catalog ? undefined : `a write of catalog '${catalog}', not '${this.catalog}'`;
  }

  createPageSink(handle: WriteHandle): LakePageSink {
    return new LakePageSink(this.fileSystems.forLocation(handle.location), handle);
  }

  async finishCreateTable(handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    const table = handle.create;
    if (table === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Write ${handle.writeId} is not of a new table`);
    await this.metastore.createTable(table);
    try {
      await commitFragments(this.metadataFs(), handle, fragments);
    } catch (e) {
      await this.metastore.dropTable(table).catch(() => undefined);
      throw e;
    }
  }

  async finishInsert(handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    // A table dropped (and made again) since the write began is not the table it wrote to.
    const current = await this.metastore.getTable(handle.schema, handle.table);
    if (current?.tableId !== handle.tableId)
      throw new EngineError(
        'TABLE_NOT_FOUND',
        `Table '${this.catalog}.${handle.schema}.${handle.table}' was dropped while rows were written to it`,
      );
    await commitFragments(this.metadataFs(), handle, fragments);
  }

  async abort(handle: WriteHandle): Promise<void> {
    await abortWriteFiles(this.metadataFs(), this.fileSystems.forLocation(handle.location), handle);
  }

  private handle(session: Session, table: LakeTable): WriteHandle {
    if (!table.managed) {
      throw new EngineError(
        'NOT_SUPPORTED',
        `Cannot write to external table '${this.catalog}.${table.schema}.${table.name}': its files are not the engine's (as Trino's hive.non-managed-table-writes-enabled=false)`,
      );
    }
    return writeHandle(table, this.metastore.tableDirectory(table.schema, table.name), session.queryId);
  }
}
