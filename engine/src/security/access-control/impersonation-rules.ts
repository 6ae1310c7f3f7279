// Impersonation by the rules file, in the shape authentication asks for (engine/src/security/
// impersonation.ts): may the authenticated `principal` act as `user`? Everyone may act as themselves;
// without a rules file, or without an `impersonation` section, nobody may act as anyone else.

import type { FileAccessControl } from './file-access-control.js';

export type ImpersonationCheck = (principal: string, user: string) => boolean;

export function rulesImpersonation(access: FileAccessControl | undefined): ImpersonationCheck {
  return (principal, user) => (access === undefined ? principal === user : access.canImpersonate(principal, user));
}
