// The coordinator's explicit transactions (START TRANSACTION ... COMMIT | ROLLBACK), as Trino keeps
// them for its clients: an id the client sends back with every statement, the transaction's modes,
// and whether a statement in it failed (then it only ends). Every connector here writes only in
// autocommit, as Trino's do by default, so a transaction holds reads: committing has nothing to
// apply. A transaction idle longer than Trino's transaction.idle-timeout (5 minutes) is dropped.

import { randomUUID } from 'node:crypto';
import { EngineError } from '../../errors/engine-error.js';

const IDLE_TIMEOUT_MILLIS = 5 * 60_000;

export interface Transaction {
  readonly id: string;
  readonly readOnly: boolean;
  readonly isolationLevel: string;
  /** A statement in it failed: it can only be rolled back. */
  aborted: boolean;
  lastUsed: number;
}

/** An error that also ends the client's transaction (a failed COMMIT or ROLLBACK): the response clears its id. */
export class TransactionEndingError extends EngineError {}

export class TransactionManager {
  private readonly transactions = new Map<string, Transaction>();

  constructor(private readonly now: () => number = Date.now) {}

  begin(isolationLevel: string, readOnly: boolean): Transaction {
    this.expireIdle();
    const transaction: Transaction = { id: randomUUID(), readOnly, isolationLevel, aborted: false, lastUsed: this.now() };
    this.transactions.set(transaction.id, transaction);
    return transaction;
  }

  /** The open transaction a statement runs in; Trino's errors when it is unknown (or expired) or aborted. */
  use(id: string): Transaction {
    this.expireIdle();
    const transaction = this.transactions.get(id);
    if (transaction === undefined) throw unknownTransaction(id);
    if (transaction.aborted)
      throw new EngineError(
        'TRANSACTION_ALREADY_ABORTED',
        'Current transaction is aborted, commands ignored until end of transaction block',
      );
    transaction.lastUsed = this.now();
    return transaction;
  }

  commit(id: string): void {
    const transaction = this.end(id);
    if (transaction.aborted)
      throw new TransactionEndingError('TRANSACTION_ALREADY_ABORTED', 'Current transaction has already been aborted');
  }

  rollback(id: string): void {
    this.end(id);
  }

  /** A statement in the transaction failed. */
  fail(id: string): void {
    const transaction = this.transactions.get(id);
    if (transaction !== undefined) transaction.aborted = true;
  }

  get size(): number {
    return this.transactions.size;
  }

  private end(id: string): Transaction {
    const transaction = this.transactions.get(id);
    if (transaction === undefined) throw new TransactionEndingError('UNKNOWN_TRANSACTION', unknownTransaction(id).rawMessage);
    this.transactions.delete(id);
    return transaction;
  }

  private expireIdle(): void {
    const now = this.now();
    for (const [id, transaction] of this.transactions) if (now - transaction.lastUsed > IDLE_TIMEOUT_MILLIS) this.transactions.delete(id);
  }
}

function unknownTransaction(id: string): EngineError {
  return new EngineError(
    'UNKNOWN_TRANSACTION',
    `Unknown transaction ID: ${id}. Possibly expired? Commands ignored until end of transaction block`,
  );
}
