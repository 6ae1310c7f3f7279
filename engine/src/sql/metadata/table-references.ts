// The table names a statement mentions, found before analysis so that their metadata loads at once
// (a name found here may turn out to be a CTE; one missed here is loaded when analysis meets it).

import type * as ast from '../parser/ast.js';

/** Statement fields that name a table (INSERT INTO t, DELETE FROM t, CREATE TABLE t AS, SHOW COLUMNS FROM t ...). */
const TABLE_FIELDS = new Set(['table', 'target', 'name', 'source']);

export function tableReferences(statement: object): ast.QualifiedName[] {
  const found: ast.QualifiedName[] = [];
  for (const [field, value] of Object.entries(statement)) {
    if (TABLE_FIELDS.has(field) && isQualifiedName(value)) found.push(value);
  }
  visit(statement, found);
  return found;
}

/** Every `Table` relation in the tree (iteratively: a statement may nest deeply). */
function visit(root: unknown, found: ast.QualifiedName[]): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    const node = value as { kind?: unknown; name?: unknown };
    if (node.kind === 'Table' && isQualifiedName(node.name)) found.push(node.name);
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push(child);
  }
}

function isQualifiedName(value: unknown): value is ast.QualifiedName {
  return value !== null && typeof value === 'object' && (value as { kind?: unknown }).kind === 'QualifiedName';
}
