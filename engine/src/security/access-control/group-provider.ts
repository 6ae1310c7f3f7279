// The group provider: the groups of a user, from `security.groupFile` (reloaded on change) or none.
// As Trino's group provider it stands apart from access control: current_groups() answers from it
// with or without a rules file, and the rules' group conditions match what it gives.

import type { EngineConfig } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';
import { parseGroupFile } from './group-file.js';
import { ReloadingFile } from './reloading-file.js';

/** The groups of a user, in the group file's order; none for a user in no group. */
export type GroupProvider = (user: string) => readonly string[];

export const NO_GROUPS: GroupProvider = () => [];

/** Throws a ConfigError naming the file and the line when the group file cannot be used. */
export function createGroupProvider(security: EngineConfig['security'], logger?: Logger): GroupProvider {
  if (security.groupFile === undefined) return NO_GROUPS;
  const groups = new ReloadingFile(security.groupFile, 'group file', parseGroupFile, security.rulesRefreshPeriod, logger);
  return (user) => groups.current().get(user) ?? [];
}
