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

/** `e` with every cast that reads the session (zone, offset or start day) and lacks it given it. */
export function withSessionZones(e: RowExpression, session: Session): RowExpression {
  const children = mapChildren(e, (child) => withSessionZones(child, session));
  if (children.kind !== 'cast' || children.sessionZone !== undefined) return children;
  const cast = castExpression(children.arg, children.type, children.safe, session);
  if (cast.kind !== 'cast' || cast.sessionZone === undefined) return children;
  return { ...children, sessionZone: cast.sessionZone };
}

/** The plan with the session on the casts of its filters, projections and join filters. */
export function planWithSessionZones(root: PlanNode, session: Session): PlanNode {
  return rewriteBottomUp(root, (node) => mapExpressions(node, (e) => withSessionZones(e, session)));
}
