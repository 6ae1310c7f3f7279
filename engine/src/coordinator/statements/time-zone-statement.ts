// SET TIME ZONE and the session property it sets (Trino's time_zone_id): the property, when a
// session has it, is the session's time zone, over the X-Trino-Time-Zone header's.

import { EngineError } from '../../errors/engine-error.js';
import { evaluateConstant } from '../../exec/expression/compiler.js';
import { normalizeTimeZone } from '../../types/time-zone-id.js';
import type { PropertyMetadata } from '../../spi/properties.js';
import { noSessionChanges, type Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { Scope } from '../../sql/analyzer/scope.js';
import { translateExpression } from '../../sql/analyzer/expression-translator.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatExpression } from '../../sql/parser/formatter.js';
import { formatOffsetMinutes, zoneNotSupported } from '../../types/time-zones.js';
import { typeName } from '../../types/types.js';
import { updateResult } from './results.js';

export const TIME_ZONE_PROPERTY = 'time_zone_id';

export const TIME_ZONE_PROPERTY_METADATA: PropertyMetadata = {
  name: TIME_ZONE_PROPERTY,
  type: { kind: 'varchar' },
  description: 'The session time zone (SET TIME ZONE sets it): an IANA zone name, UTC or an offset such as +05:30',
  validate: (v) => {
    if (normalizeTimeZone(String(v)) === undefined) throw new Error(`Time zone not supported: ${String(v)}`);
  },
};

/** The session with its time_zone_id property, when set, as its time zone. */
export function inSessionTimeZone(session: Session): Session {
  const zone = session.properties.get(TIME_ZONE_PROPERTY);
  if (zone === undefined) return session;
  const normalized = normalizeTimeZone(zone);
  if (normalized === undefined) throw zoneNotSupported(zone);
  return normalized === session.timeZone ? session : { ...session, timeZone: normalized };
}

/** SET TIME ZONE 'zone' | INTERVAL offset | LOCAL (back to the client's zone). */
export function setTimeZone(s: ast.SetTimeZone, session: Session): StatementResult {
  const changes = noSessionChanges();
  if (s.value === undefined) {
    changes.resetSessionProperties.push(TIME_ZONE_PROPERTY);
    return updateResult('SET TIME ZONE', changes);
  }
  const value = translateExpression(s.value, { scope: new Scope([]), session, parameters: [] });
  const kind = value.type.kind;
  if (kind !== 'varchar' && kind !== 'interval day to second') {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Expected expression of varchar or interval day-time type, but '${formatExpression(s.value)}' has ${typeName(value.type)} type`,
      s.value.location,
    );
  }
  const constant = evaluateConstant(value);
  if (constant === null) throw new EngineError('INVALID_PARAMETER_USAGE', 'Time zone must not be null', s.value.location);
  let zone: string;
  if (kind === 'varchar') zone = constant as string;
  else {
    const millis = constant as number;
    if (millis % 60_000 !== 0)
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Invalid time zone offset interval: interval contains seconds', s.value.location);
    zone = formatOffsetMinutes(millis / 60_000);
  }
  const normalized = normalizeTimeZone(zone);
  if (normalized === undefined) throw zoneNotSupported(zone);
  changes.setSessionProperties.set(TIME_ZONE_PROPERTY, normalized);
  return updateResult('SET TIME ZONE', changes);
}
