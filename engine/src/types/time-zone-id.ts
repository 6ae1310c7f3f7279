// The session time zone a client asks for, read as Trino reads it: an IANA name (Europe/Paris), UTC
// or one of its equivalents (Z, GMT, Etc/UTC...), or an offset (+05:30, -08, UTC+2, Etc/GMT-3),
// normalized to the forms the engine evaluates (UTC, +HH:MM, or the IANA name). Anything else is
// unsupported rather than silently UTC.

const UTC_EQUIVALENTS = new Set(
  ['GMT', 'GMT0', 'UT', 'UTC', 'UCT', 'Z', 'Zulu', 'Greenwich', 'Universal'].flatMap((name) => [name, `Etc/${name}`]),
);
/** Prefixes followed by a signed offset; Etc/GMT counts the other way round (Etc/GMT+5 is UTC-5). */
const OFFSET_PREFIXES = ['Etc/GMT', 'Etc/UTC', 'Etc/UT', 'GMT', 'UTC', 'UT', ''] as const;
const MAX_OFFSET_MINUTES = 14 * 60;

/** The zone in the engine's form, or undefined when it is not a time zone. */
export function normalizeTimeZone(zone: string): string | undefined {
  if (UTC_EQUIVALENTS.has(zone)) return 'UTC';
  for (const prefix of OFFSET_PREFIXES) {
    if (!zone.startsWith(prefix)) continue;
    const minutes = offsetMinutes(zone.slice(prefix.length));
    if (minutes === undefined) continue;
    return formatOffset(prefix === 'Etc/GMT' ? -minutes : minutes);
  }
  return isIanaZone(zone) ? zone : undefined;
}

/** `+5`, `-08`, `+05:30`, `+0530` -> signed minutes; undefined when not an offset in ±14:00. */
function offsetMinutes(text: string): number | undefined {
  const match = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (minutes >= 60) return undefined;
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return undefined;
  return match[1] === '-' ? -total : total;
}

function formatOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

function isIanaZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
