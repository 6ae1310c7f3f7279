// user-mapping.pattern as in Trino: a regular expression that must match the whole authenticated
// name; its first capture group (or the whole match without one) is the user. A name it does not
// match is refused.

import { ConfigError } from '../../config/config-error.js';

export type UserMapping = (principal: string) => string | undefined;

export function userMapping(pattern: string | undefined, setting: string): UserMapping {
  if (pattern === undefined) return (principal) => principal;
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${pattern})$`, 'u');
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  '${setting}' is not a regular expression: ${(e as Error).message}`);
  }
  return (principal) => {
    const match = regex.exec(principal);
    if (match === null) return undefined;
    const user = match.length > 1 ? match[1] : match[0];
    return user === undefined || user === '' ? undefined : user;
  };
}
