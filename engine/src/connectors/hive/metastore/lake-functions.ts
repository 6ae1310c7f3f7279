// The SQL routines of a lake catalog (CREATE FUNCTION), kept as Trino's file metastore keeps them, so
// they survive restarts and Trino reads the same folder:
//   <catalog dir>/<schema>/.trinoFunction/<name>=<sha256 of the signature token>
// each a JSON file of Trino's LanguageFunction (signatureToken, sql, path, owner). The name is
// escaped as Hive escapes path names; the hash is over the token's UTF-16 code units, as Trino's
// hashUnencodedChars takes them.

import { createHash } from 'node:crypto';
import { EngineError } from '../../../errors/engine-error.js';
import type { LanguageFunction, LanguageFunctionStorage } from '../../../spi/language-function.js';
import type { FileSystem } from '../file-system/file-system.js';
import { childLocation, relativeLocation } from '../location.js';
import { overwriteFile, readJson, toJsonBytes } from './json-files.js';

const FUNCTIONS_DIRECTORY = '.trinoFunction/';

interface LanguageFunctionJson {
  signatureToken: string;
  sql: string;
  path: { catalogName: string; schemaName: string }[];
  owner?: string | null;
}

export class LakeFunctions implements LanguageFunctionStorage {
  constructor(
    private readonly catalogDir: string,
    private readonly fs: () => FileSystem,
    private readonly schemaExists: (schema: string) => Promise<boolean>,
  ) {}

  async list(schema: string): Promise<{ name: string; fn: LanguageFunction }[]> {
    return this.read(schema, undefined);
  }

  async get(schema: string, name: string): Promise<LanguageFunction[]> {
    return (await this.read(schema, name)).map((f) => f.fn);
  }

  async create(schema: string, name: string, fn: LanguageFunction, replace: boolean): Promise<void> {
    if (!(await this.schemaExists(schema))) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${schema}' does not exist`);
    const file = this.file(schema, name, fn.signatureToken);
    const json: LanguageFunctionJson = {
      signatureToken: fn.signatureToken,
      sql: fn.sql,
      path: [],
      ...(fn.owner === undefined ? {} : { owner: fn.owner }),
    };
    const bytes = toJsonBytes(json);
    if (await this.fs().createExclusive(file, bytes)) return;
    if (!replace) throw new EngineError('ALREADY_EXISTS', 'Function already exists');
    await overwriteFile(this.fs(), file, bytes);
  }

  async drop(schema: string, name: string, signatureToken: string): Promise<void> {
    const file = this.file(schema, name, signatureToken);
    if ((await this.fs().stat(file)) === undefined) throw new EngineError('NOT_FOUND', 'Function not found');
    await this.fs().deleteFile(file);
  }

  /** The routines of a schema (of one name when given), by name. */
  private async read(schema: string, only: string | undefined): Promise<{ name: string; fn: LanguageFunction }[]> {
    const directory = this.directory(schema);
    const found: { name: string; fn: LanguageFunction }[] = [];
    for await (const entry of this.fs().listFiles(directory)) {
      const parts = relativeLocation(directory, entry.location).split('=');
      if (parts.length !== 2) continue;
      const name = decodeURIComponent(parts[0]);
      if (only !== undefined && name !== only) continue;
      const json = await readJson<LanguageFunctionJson>(this.fs(), entry.location);
      if (json !== undefined)
        found.push({
          name,
          fn: { signatureToken: json.signatureToken, sql: json.sql, ...(typeof json.owner === 'string' ? { owner: json.owner } : {}) },
        });
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private directory(schema: string): string {
    return childLocation(this.catalogDir, `${schema}/${FUNCTIONS_DIRECTORY}`);
  }

  private file(schema: string, name: string, signatureToken: string): string {
    const hash = createHash('sha256').update(Buffer.from(signatureToken, 'utf16le')).digest('hex');
    return childLocation(this.directory(schema), `${escapePathName(name)}=${hash}`);
  }
}

/** Hive's escaping of a path name: characters a path or a partition name cannot hold become %XX. */
function escapePathName(name: string): string {
  return name.replace(/[\u0000-\u001f"#%'*/:=?\\\u007f{[\]^]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
