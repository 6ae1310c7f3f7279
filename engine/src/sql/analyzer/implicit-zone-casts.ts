// Implicit coercions into zoned types (timestamp -> timestamp with time zone, date -> timestamp with
// time zone, time -> time with time zone: Trino's TypeCoercion) read the session zone, as the same
// explicit CASTs do. Coercions are made in many places that do not hold the session (operator and
// function arguments, CASE, UNION, VALUES, INSERT), so the session is put on them afterwards: on a
// translated expression, on the plan's expressions, and on an INSERT's or UPDATE's casts.

import type { Session } from '../../spi/session.js';
import type { PlanNode } from '../planner/plan.js';
import { mapChildren, type RowExpression } from '../planner/row-expression.js';
import { mapExpressions, rewriteBottomUp } from '../planner/optimizer/rewrite-plan.js';
import { castExpression } from './time-zone-translation.js';

/** `e` with every cast that reads the session (zone, offset or start day) and lacks it given it; `e` itself when none does. */
export function withSessionZones(e: RowExpression, session: Session): RowExpression {
  let changed = false;
  const mapped = mapChildren(e, (child) => {
    const next = withSessionZones(child, session);
    if (next !== child) changed = true;
    return next;
  });
  const base = changed ? mapped : e;
  if (base.kind !== 'cast' || base.sessionZone !== undefined) return base;
  const cast = castExpression(base.arg, base.type, base.safe, session);
  if (cast.kind !== 'cast' || cast.sessionZone === undefined) return base;
  return { ...base, sessionZone: cast.sessionZone };
}

/** The plan with the session on the casts of its filters, projections and join filters (nodes without such casts kept as they are). */
export function planWithSessionZones(root: PlanNode, session: Session): PlanNode {
  return rewriteBottomUp(root, (node) => {
    let changed = false;
    const mapped = mapExpressions(node, (e) => {
      const next = withSessionZones(e, session);
      if (next !== e) changed = true;
      return next;
    });
    return changed ? mapped : node;
  });
}
