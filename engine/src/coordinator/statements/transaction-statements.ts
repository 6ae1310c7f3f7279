// START TRANSACTION, COMMIT and ROLLBACK as Trino runs them over connectors that write only in
// autocommit: a transaction groups reads; a write in it fails (READ_ONLY_VIOLATION in a READ ONLY
// one, else AUTOCOMMIT_WRITE_CONFLICT naming the catalog), and any failure in it aborts it. The
// client learns its transaction's id from the Started-Transaction-Id header and drops it at
// Clear-Transaction-Id.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../../sql/parser/ast.js';
import { noSessionChanges, type Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { TransactionManager } from '../transactions/transaction-manager.js';
import { updateResult } from './results.js';

export function startTransaction(s: ast.StartTransaction, session: Session, transactions: TransactionManager): StatementResult {
  if (session.transaction === undefined) throw new EngineError('INCOMPATIBLE_CLIENT', 'Client does not support transactions');
  if (session.transaction.id !== undefined) throw new EngineError('NOT_SUPPORTED', 'Nested transactions not supported');
  const isolation = s.modes.filter((m) => m.kind === 'IsolationLevel');
  if (isolation.length > 1) throw new EngineError('SYNTAX_ERROR', 'Multiple transaction isolation levels specified', s.location);
  const access = s.modes.filter((m) => m.kind === 'AccessMode');
  if (access.length > 1) throw new EngineError('SYNTAX_ERROR', 'Multiple transaction read modes specified', s.location);
  const transaction = transactions.begin(isolation[0]?.level ?? 'READ UNCOMMITTED', access[0]?.readOnly ?? false);
  const changes = noSessionChanges();
  changes.startedTransactionId = transaction.id;
  return updateResult('START TRANSACTION', changes);
}

export function endTransaction(s: ast.Commit | ast.Rollback, session: Session, transactions: TransactionManager): StatementResult {
  const id = session.transaction?.id;
  if (id === undefined) throw new EngineError('NOT_IN_TRANSACTION', 'No transaction in progress');
  if (s.kind === 'Commit') transactions.commit(id);
  else transactions.rollback(id);
  const changes = noSessionChanges();
  changes.clearTransactionId = true;
  return updateResult(s.kind === 'Commit' ? 'COMMIT' : 'ROLLBACK', changes);
}

/** For a statement in the client's transaction: the transaction is open, and the statement does not write. */
export function checkInTransaction(statement: ast.Statement, session: Session, transactions: TransactionManager): void {
  const id = session.transaction?.id;
  if (id === undefined || statement.kind === 'Commit' || statement.kind === 'Rollback' || statement.kind === 'StartTransaction') return;
  const transaction = transactions.use(id);
  const catalog = writtenCatalog(statement, session);
  if (catalog === undefined) return;
  if (transaction.readOnly) throw new EngineError('READ_ONLY_VIOLATION', 'Cannot execute write in a read-only transaction');
  throw new EngineError('AUTOCOMMIT_WRITE_CONFLICT', `Catalog only supports writes using autocommit: ${catalog}`);
}

/** The catalog a statement writes to (its data or its metadata), if it writes. */
function writtenCatalog(statement: ast.Statement, session: Session): string | undefined {
  const inCatalog = (name: ast.QualifiedName, parts: number) => (name.parts.length === parts ? name.parts[0].value : session.catalog);
  switch (statement.kind) {
    case 'Insert':
    case 'Merge':
      return inCatalog(statement.target, 3);
    case 'Delete':
    case 'Update':
    case 'TruncateTable':
    case 'AddColumn':
    case 'DropColumn':
    case 'RenameColumn':
      return inCatalog(statement.table, 3);
    case 'RenameTable':
    case 'RenameView':
      return inCatalog(statement.source, 3);
    case 'CreateTable':
    case 'CreateTableAsSelect':
    case 'DropTable':
    case 'SetProperties':
    case 'CreateView':
    case 'DropView':
      return inCatalog(statement.name, 3);
    case 'Comment':
      return inCatalog(statement.name, statement.target === 'COLUMN' ? 4 : 3);
    case 'CreateSchema':
    case 'DropSchema':
      return inCatalog(statement.name, 2);
    default:
      return undefined;
  }
}
