// current_groups(): the groups of the user running the query, as the group provider (the group file,
// security.groupFile) gives them when the query starts; an empty array without one, as Trino without
// a group provider. Fixed for the query, so the analyzer folds it to a constant.

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import { VARCHAR, arrayOf } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { type RowExpression, constant } from '../planner/row-expression.js';

export function currentGroups(e: ast.FunctionCall, argumentTypeNames: () => string[], session: Session): RowExpression {
  if (e.args.length > 0)
    throw new EngineError(
      'FUNCTION_NOT_FOUND',
      `Unexpected parameters (${argumentTypeNames().join(', ')}) for function current_groups. Expected: current_groups()`,
      e.location,
    );
  return constant([...(session.groups ?? [])], arrayOf(VARCHAR));
}
