// A write statement (CREATE TABLE AS, INSERT) as the statement executor runs it: its query, how the
// query's columns map onto the table's (its layout), and a write begun with the connector that then
// either commits once — from the plan's TableFinish, with every writer's fragments — or aborts.

import { EngineError } from '../../errors/engine-error.js';
import type { WriteCommit } from '../../exec/operators/table-finish.js';
import type { ColumnMetadata, Connector, TableMetadata } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import type { OutputColumn } from '../../spi/statement-result.js';
import type { WriteHandle } from '../../spi/table-write.js';
import type * as ast from '../../sql/parser/ast.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';

export interface WriteStatement {
  query: ast.Query;
  /** Types the query's columns are cast to (INSERT: the target columns'). */
  coerceTo?: ColumnMetadata[];
  /** False for CREATE TABLE AS ... WITH NO DATA: the table is created empty and the query not run. */
  withData: boolean;
  /** Checks the query's columns against the target and says where they go (no write begins). */
  layout(columns: readonly OutputColumn[]): WriteLayout;
  /** Begins the write: from then on it either commits or is aborted. */
  begin(layout: WriteLayout): Promise<BegunWrite>;
}

export interface WriteLayout {
  kind: 'create' | 'insert';
  table: TableMetadata;
  /** Per table column (in table order), the query column written to it; -1: none (`omitted`, else NULL). */
  sources: number[];
  /** Per table column, the value written where `sources` has none (a column's default). */
  omitted?: readonly (RowExpression | undefined)[];
  queryColumns: readonly OutputColumn[];
  /** Whether the connector's writers run on any node (else on the coordinator, where its data is). */
  writesAnywhere: boolean;
  /** Table columns whose rows should go to one writer each. */
  partitionColumns: readonly string[];
}

export interface BegunWrite {
  handle: WriteHandle;
  commit: WriteCommit;
  /** Undoes the write unless it committed; a second call does nothing. */
  abort(): Promise<void>;
}

/** Runs a write statement: plans its query with the writers, begins the write, runs it; returns the rows written. */
export type WriteRunner = (write: WriteStatement) => Promise<number>;

export function writeLayout(
  kind: WriteLayout['kind'],
  connector: Connector,
  table: TableMetadata,
  sources: number[],
  queryColumns: readonly OutputColumn[],
): WriteLayout {
  return {
    kind,
    table,
    sources,
    queryColumns,
    writesAnywhere: connector.remotelyAccessible?.(table) === true,
    partitionColumns: connector.writePartitionColumns?.(table) ?? [],
  };
}

/** A write the connector began: its commit (the connector's finish) and its abort, each at most once. */
export function begun(connector: Connector, session: Session, layout: WriteLayout, handle: WriteHandle): BegunWrite {
  let state: 'open' | 'committing' | 'committed' | 'aborted' = 'open';
  const finish = layout.kind === 'create' ? connector.finishCreateTable : connector.finishInsert;
  return {
    handle,
    commit: async (fragments) => {
      if (state !== 'open' || finish === undefined)
        throw new EngineError(
          'GENERIC_INTERNAL_ERROR',
          `A write of ${layout.table.catalog}.${layout.table.schema}.${layout.table.name} cannot commit now (${state})`,
        );
      state = 'committing';
      try {
        await finish.call(connector, session, handle, fragments);
        state = 'committed';
      } catch (e) {
        state = 'open';
        throw e;
      }
    },
    abort: async () => {
      if (state !== 'open') return;
      state = 'aborted';
      await connector.abortWrite?.(session, handle);
    },
  };
}
