// Who may see and control a query: the user who submitted it, and the configured admin users.
// Everyone else is told the query does not exist, so query ids reveal nothing.

import type { ManagedQuery } from './managed-query.js';

export class QueryAccess {
  private readonly admins: ReadonlySet<string>;

  constructor(adminUsers: readonly string[]) {
    this.admins = new Set(adminUsers);
  }

  isAdmin(user: string): boolean {
    return this.admins.has(user);
  }

  canAccess(user: string, query: ManagedQuery): boolean {
    return this.mayAccessQueryOf(user, query.session.user);
  }

  /** Whether `user` may see and control a query submitted by `owner` (one held in memory or in the history on disk). */
  mayAccessQueryOf(user: string, owner: string): boolean {
    return owner === user || this.isAdmin(user);
  }

  /** The queries `user` may see, in the given order. */
  visible(user: string, queries: readonly ManagedQuery[]): ManagedQuery[] {
    return this.isAdmin(user) ? [...queries] : queries.filter((q) => q.session.user === user);
  }
}
