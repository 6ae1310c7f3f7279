// Command-line parsing on node:util parseArgs, with errors a user can act on.

import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export function parseCommandLine(command: string, args: readonly string[], options: OptionSpecs): OptionValues {
  return parseCommandArguments(command, args, options, false).values;
}

/** Options and, where `allowPositionals`, the arguments that are not options (`engine node state ACTIVE`). */
export function parseCommandArguments(
  command: string,
  args: readonly string[],
  options: OptionSpecs,
  allowPositionals = true,
): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, strict: true, allowPositionals });
    return { values: values as OptionValues, positionals };
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '');
    throw new UsageError(`engine ${command}: ${message}\nRun 'engine ${command} --help' for the options.`);
  }
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(values: OptionValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** Help lines as a two-column table: each option, then its description aligned after the longest option. */
export function optionTable(rows: ReadonlyArray<readonly [option: string, description: string]>): string {
  const width = Math.max(...rows.map(([option]) => option.length)) + 2;
  return rows.map(([option, description]) => `  ${option.padEnd(width)}${description}`.trimEnd()).join('\n');
}
