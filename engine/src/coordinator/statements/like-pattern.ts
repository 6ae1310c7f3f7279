// LIKE patterns of SHOW ... LIKE 'pattern' [ESCAPE 'c'], matched in JavaScript.

export function likeMatcher(pattern: string | undefined, escape?: string): (value: string) => boolean {
  if (pattern === undefined) return () => true;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (escape !== undefined && c === escape && i + 1 < pattern.length) {
      source += escapeRegExp(pattern[++i]);
    } else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += escapeRegExp(c);
  }
  const re = new RegExp(`^${source}$`);
  return (value) => re.test(value);
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
