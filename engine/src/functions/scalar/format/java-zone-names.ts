// %tZ of a region zone: Java prints TimeZone's short display name in the US English locale, the
// daylight name when the zone's rules have daylight saving at that instant (EDT) and the standard
// one otherwise (EST). Known here: UTC and the US zones (their names do not depend on the date, and
// daylight saving is the standard offset plus an hour); another zone is refused by name
// rather than guessed (Node's Intl names zones only from 1970 and not as Java's tables do).

import { EngineError } from '../../../errors/engine-error.js';
import { offsetMillisAt, zoneKeyOf } from '../../../types/time-zones.js';

/** Standard offset in hours, standard name, daylight name. */
const US_ZONES: Record<string, [number, string, string]> = {
  'America/New_York': [-5, 'EST', 'EDT'],
  'US/Eastern': [-5, 'EST', 'EDT'],
  'America/Chicago': [-6, 'CST', 'CDT'],
  'US/Central': [-6, 'CST', 'CDT'],
  'America/Denver': [-7, 'MST', 'MDT'],
  'US/Mountain': [-7, 'MST', 'MDT'],
  'America/Phoenix': [-7, 'MST', 'MDT'],
  'America/Los_Angeles': [-8, 'PST', 'PDT'],
  'US/Pacific': [-8, 'PST', 'PDT'],
  'America/Anchorage': [-9, 'AKST', 'AKDT'],
  'US/Alaska': [-9, 'AKST', 'AKDT'],
  'Pacific/Honolulu': [-10, 'HST', 'HDT'],
  'US/Hawaii': [-10, 'HST', 'HDT'],
};

export function zoneAbbreviation(zoneId: string, epochNanos: bigint): string {
  if (zoneId === 'UTC') return 'UTC';
  const names = US_ZONES[zoneId];
  if (names === undefined)
    throw new EngineError('NOT_SUPPORTED', `format's %tZ of time zone ${zoneId} is not supported (Java's name for it is not known here)`);
  const [standardHours, standard, daylight] = names;
  const offsetMillis = offsetMillisAt(zoneKeyOf(zoneId), Number(epochNanos / 1_000_000n));
  // Daylight saving (and war time) is an hour ahead of standard; local mean time before 1883 is standard in Java's rules.
  return offsetMillis === (standardHours + 1) * 3_600_000 ? daylight : standard;
}
