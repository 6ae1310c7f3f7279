// Object naming as the real server does it: DNS-1123 subdomain names and generateName suffixes.
import { randomInt } from 'node:crypto';
import type { FieldError } from './status.js';

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function nameErrors(name: string, asLabel: boolean): FieldError[] {
  if (asLabel ? label.test(name) && name.length <= 63 : subdomain.test(name) && name.length <= 253) return [];
  const message = asLabel
    ? `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
    : `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
  return [{ field: 'metadata.name', reason: 'FieldValueInvalid', message }];
}

// The alphabet of apimachinery's rand.String (no vowels, no look-alike digits).
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[randomInt(alphabet.length)];
  return prefix + suffix;
}

/** RFC 3339 at second precision, as metav1.Time serializes. */
export function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
