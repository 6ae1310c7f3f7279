// The access control a server runs with: from `security.rulesFile` (and `security.groupFile`),
// each reloaded on change; none without a rules file.

import type { EngineConfig } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';
import { FileAccessControl } from './file-access-control.js';
import { parseGroupFile } from './group-file.js';
import { ReloadingFile } from './reloading-file.js';
import { parseRulesText } from './rules-file-parser.js';

/** Throws a ConfigError naming the file and the place in it when a file cannot be used. */
export function createAccessControl(security: EngineConfig['security'], logger?: Logger): FileAccessControl | undefined {
  if (security.rulesFile === undefined) {
    if (security.groupFile !== undefined)
      logger?.warn(
        'security.groupFile is set without security.rulesFile: the group file is read only with access rules (current_groups() is empty)',
      );
    return undefined;
  }
  const rules = new ReloadingFile(security.rulesFile, 'access rules file', parseRulesText, security.rulesRefreshPeriod, logger);
  const groups =
    security.groupFile === undefined
      ? undefined
      : new ReloadingFile(security.groupFile, 'group file', parseGroupFile, security.rulesRefreshPeriod, logger);
  return new FileAccessControl(
    () => rules.current(),
    (user) => groups?.current().get(user) ?? [],
  );
}
