// The access control a server runs with: from `security.rulesFile`, reloaded on change, whose group
// conditions match the groups of the group provider; none without a rules file.

import type { EngineConfig } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';
import { FileAccessControl } from './file-access-control.js';
import { createGroupProvider, type GroupProvider } from './group-provider.js';
import { ReloadingFile } from './reloading-file.js';
import { parseRulesText } from './rules-file-parser.js';

/** Throws a ConfigError naming the file and the place in it when a file cannot be used. */
export function createAccessControl(
  security: EngineConfig['security'],
  logger?: Logger,
  groupsOf: GroupProvider = createGroupProvider(security, logger),
): FileAccessControl | undefined {
  if (security.rulesFile === undefined) return undefined;
  const rules = new ReloadingFile(security.rulesFile, 'access rules file', parseRulesText, security.rulesRefreshPeriod, logger);
  return new FileAccessControl(() => rules.current(), groupsOf);
}
