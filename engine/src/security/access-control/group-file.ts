// Trino's file group provider: lines `group:user1,user2,...` give users their groups, which the
// `group` conditions of access rules match. Blank lines and lines starting with # are skipped.

import { RulesFileError } from './rules-file-parser.js';

/** user -> groups */
export type GroupMembership = ReadonlyMap<string, readonly string[]>;

export function parseGroupFile(text: string): GroupMembership {
  const groups = new Map<string, string[]>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const group = line.slice(0, colon).trim();
    if (colon <= 0 || group === '') throw new RulesFileError(`line ${i + 1}: expected 'group:user1,user2,...', got ${JSON.stringify(raw)}`);
    for (const user of line
      .slice(colon + 1)
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '')) {
      const list = groups.get(user) ?? [];
      if (!list.includes(group)) list.push(group);
      groups.set(user, list);
    }
  });
  return groups;
}
