// Who may see and control a query: the user who submitted it, the configured admin users, and with
// access rules (security.rulesFile) whoever their query rules let view or kill queries of its owner.
// Everyone else is told the query does not exist, so query ids reveal nothing.

import type { ManagedQuery } from './managed-query.js';
import type { FileAccessControl } from '../security/access-control/file-access-control.js';
import { NO_GROUPS, type GroupProvider } from '../security/access-control/group-provider.js';

export class QueryAccess {
  private readonly admins: ReadonlySet<string>;

  constructor(
    adminUsers: readonly string[],
    private readonly rules?: FileAccessControl,
    /** The group provider (security.groupFile), with or without access rules. */
    private readonly groups: GroupProvider = NO_GROUPS,
  ) {
    this.admins = new Set(adminUsers);
  }

  /** The user's groups from the group provider (current_groups()); none without a group file. */
  groupsOf(user: string): readonly string[] {
    return this.groups(user);
  }

  isAdmin(user: string): boolean {
    return this.admins.has(user);
  }

  canAccess(user: string, query: ManagedQuery): boolean {
    return this.mayAccessQueryOf(user, query.session.user);
  }

  /** Whether `user` may see a query submitted by `owner` (one held in memory or in the history on disk). */
  mayAccessQueryOf(user: string, owner: string): boolean {
    return owner === user || this.isAdmin(user) || this.rules?.canViewQueryOwnedBy(user, owner) === true;
  }

  /** Whether `user` may cancel a query submitted by `owner`. */
  mayKillQueryOf(user: string, owner: string): boolean {
    return owner === user || this.isAdmin(user) || this.rules?.canKillQueryOwnedBy(user, owner) === true;
  }

  /** The queries `user` may see, in the given order. */
  visible(user: string, queries: readonly ManagedQuery[]): ManagedQuery[] {
    return queries.filter((q) => this.canAccess(user, q));
  }
}
