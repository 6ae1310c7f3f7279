// Whether an authenticated principal may run queries as another user (X-Engine-User naming someone
// else). The rules file's impersonation rules (access-control) provide their own implementation;
// without them a principal is only ever itself, as in Trino without impersonation rules.

export interface Impersonation {
  canImpersonate(principal: string, user: string): boolean;
}

export const SELF_ONLY: Impersonation = {
  canImpersonate: (principal, user) => principal === user,
};
