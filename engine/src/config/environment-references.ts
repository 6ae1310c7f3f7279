// `${ENV:NAME}` in a catalog property stands for the environment variable NAME, as in Trino, so that
// secrets (passwords, access keys) never sit in the configuration file.

import { ConfigError } from './config-error.js';

const REFERENCE = /\$\{ENV:([A-Za-z_][A-Za-z0-9_]*)\}/g;

type PropertyValue = string | number | boolean;

/** The properties with every reference replaced; a reference to a variable that is not set is a configuration error naming it. */
export function withEnvironment(
  catalog: string,
  properties: Readonly<Record<string, PropertyValue>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  for (const [name, value] of Object.entries(properties)) {
    out[name] =
      typeof value !== 'string'
        ? value
        : value.replace(REFERENCE, (_match, variable: string) => {
            const replacement = env[variable];
            if (replacement === undefined) {
              throw new ConfigError(
                `Invalid configuration:\n  catalog '${catalog}': property '${name}' refers to environment variable ${variable}, which is not set`,
              );
            }
            return replacement;
          });
  }
  return out;
}
