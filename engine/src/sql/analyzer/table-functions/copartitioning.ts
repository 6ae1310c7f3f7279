// COPARTITION (t1, t2, ...) of a table function invocation, checked as Trino checks it: each name
// refers to exactly one table argument (by its alias, or by its table's name, qualified with the
// session's catalog and schema), once, and copartitioned arguments must be partitioned.

import { EngineError } from '../../../errors/engine-error.js';
import type { Session } from '../../../spi/session.js';
import type * as ast from '../../parser/ast.js';
import type { TableArgument, TableFunctionInvocation } from '../../parser/ast-relations.js';
import { qualifiedObjectName } from '../../metadata/qualified-name.js';

/** Throws INVALID_COPARTITIONING when a COPARTITION list names its table arguments wrongly. */
export function checkCopartitioning(invocation: TableFunctionInvocation, session: Session): void {
  const named = invocation.arguments.flatMap((a) =>
    a.value.kind === 'TableArgument' ? [{ argument: a.value, name: argumentName(a.value, session) }] : [],
  );
  for (const list of invocation.copartitioning) {
    const referenced = new Set<TableArgument>();
    for (const name of list) {
      const written = name.parts.map((p) => p.value).join('.');
      const at = name.parts[0].location;
      const unqualified = name.parts.length === 1 ? named.filter((n) => n.name === written) : [];
      const candidates = unqualified.length > 0 ? unqualified : named.filter((n) => n.name === qualifiedName(name, session));
      if (candidates.length === 0) throw new EngineError('INVALID_COPARTITIONING', `No table argument found for name: ${written}`, at);
      if (candidates.length > 1)
        throw new EngineError('INVALID_COPARTITIONING', `Ambiguous reference: multiple table arguments found for name: ${written}`, at);
      const { argument } = candidates[0];
      if (referenced.has(argument))
        throw new EngineError('INVALID_COPARTITIONING', `Multiple references to table argument: ${written} in COPARTITION clause`, at);
      referenced.add(argument);
    }
    const unpartitioned = named.find((n) => referenced.has(n.argument) && n.argument.partitionBy === undefined);
    if (unpartitioned) {
      throw new EngineError(
        'INVALID_COPARTITIONING',
        `Table ${unpartitioned.name} referenced in COPARTITION clause is not partitioned`,
        unpartitioned.argument.relation.location,
      );
    }
  }
}

/** The name a table argument is referred to by: its alias, else its table's qualified name; a bare subquery has none. */
function argumentName(argument: TableArgument, session: Session): string | undefined {
  const relation = argument.relation;
  if (relation.kind === 'AliasedRelation') return relation.alias.value;
  return relation.kind === 'Table' ? qualifiedName(relation.name, session) : undefined;
}

function qualifiedName(name: ast.QualifiedName, session: Session): string {
  const { catalog, schema, name: table } = qualifiedObjectName(name, session);
  return `${catalog}.${schema}.${table}`;
}
