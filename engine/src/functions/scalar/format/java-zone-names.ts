// %tZ of a region zone: Java prints TimeZone's short display name in the US English locale, the
// daylight name when ZoneRules.isDaylightSavings holds at that instant (the offset differs from the
// zone's standard offset) and the standard one otherwise. The names and the standard offsets are
// Java's own (java-zone-table.ts); the offset at the instant is the zone table's (Intl). Offsets of
// local mean time, which Intl may round to the minute, are within a minute of Java's: a difference
// of under a minute is no daylight saving.

import { EngineError } from '../../../errors/engine-error.js';
import { offsetMillisAt, zoneKeyOf } from '../../../types/time-zones.js';
import { JAVA_ZONE_LINES } from './java-zone-table.js';

interface JavaZone {
  standard: string;
  daylight: string;
  /** Epoch seconds where the standard offset changes (the first: -Infinity), and the offset (seconds) from each. */
  changes: number[];
  offsets: number[];
}

let zones: Map<string, JavaZone> | undefined;

function javaZones(): Map<string, JavaZone> {
  if (zones !== undefined) return zones;
  zones = new Map();
  for (const line of JAVA_ZONE_LINES.split('\n')) {
    if (line === '') continue;
    const [name, standard, daylight, history] = line.split('|');
    const [first, ...rest] = history.split(';');
    const changes = [Number.NEGATIVE_INFINITY];
    const offsets = [Number(first)];
    for (const change of rest) {
      const [second, offset] = change.split(',');
      changes.push(Number(second));
      offsets.push(Number(offset));
    }
    zones.set(name, { standard, daylight, changes, offsets });
  }
  return zones;
}

function standardOffsetSeconds(zone: JavaZone, epochSecond: number): number {
  let i = zone.changes.length - 1;
  while (zone.changes[i] > epochSecond) i--;
  return zone.offsets[i];
}

export function zoneAbbreviation(zoneId: string, epochNanos: bigint): string {
  if (zoneId === 'UTC') return 'UTC';
  const zone = javaZones().get(zoneId);
  if (zone === undefined)
    throw new EngineError('NOT_SUPPORTED', `format's %tZ of time zone ${zoneId} is not supported (Java knows no zone of that name)`);
  const epochMillis = Number(epochNanos / 1_000_000n) - (epochNanos % 1_000_000n < 0n ? 1 : 0);
  const offsetSeconds = offsetMillisAt(zoneKeyOf(zoneId), epochMillis) / 1000;
  const standard = standardOffsetSeconds(zone, Math.floor(epochMillis / 1000));
  return Math.abs(offsetSeconds - standard) < 60 ? zone.standard : zone.daylight;
}
