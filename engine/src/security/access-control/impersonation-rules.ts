// Impersonation by the rules file, in the shape authentication asks for (security/impersonation.ts):
// may the authenticated `principal` act as `user`? Everyone may act as themselves; without a rules
// file, or without an `impersonation` section, nobody may act as anyone else.

import { SELF_ONLY, type Impersonation } from '../impersonation.js';
import type { FileAccessControl } from './file-access-control.js';

export function rulesImpersonation(access: FileAccessControl | undefined): Impersonation {
  if (access === undefined) return SELF_ONLY;
  return { canImpersonate: (principal, user) => principal === user || access.canImpersonate(principal, user) };
}
