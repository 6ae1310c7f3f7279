// The SQL routines of a memory catalog (CREATE FUNCTION), by schema and name: held in this process
// (on the coordinator, which analyzes every query), gone with it as the catalog's tables are.

import { EngineError } from '../../errors/engine-error.js';
import type { LanguageFunction, LanguageFunctionStorage } from '../../spi/language-function.js';

export class MemoryFunctions implements LanguageFunctionStorage {
  /** schema -> name -> signature token -> routine */
  private readonly schemas = new Map<string, Map<string, Map<string, LanguageFunction>>>();

  constructor(private readonly schemaExists: (schema: string) => boolean) {}

  async list(schema: string): Promise<{ name: string; fn: LanguageFunction }[]> {
    const names = [...(this.schemas.get(schema)?.entries() ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return names.flatMap(([name, overloads]) => [...overloads.values()].map((fn) => ({ name, fn })));
  }

  async get(schema: string, name: string): Promise<LanguageFunction[]> {
    return [...(this.schemas.get(schema)?.get(name)?.values() ?? [])];
  }

  async create(schema: string, name: string, fn: LanguageFunction, replace: boolean): Promise<void> {
    if (!this.schemaExists(schema)) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${schema}' does not exist`);
    let names = this.schemas.get(schema);
    if (names === undefined) this.schemas.set(schema, (names = new Map()));
    let overloads = names.get(name);
    if (overloads === undefined) names.set(name, (overloads = new Map()));
    if (overloads.has(fn.signatureToken) && !replace) throw new EngineError('ALREADY_EXISTS', 'Function already exists');
    overloads.set(fn.signatureToken, Object.freeze({ ...fn }));
  }

  async drop(schema: string, name: string, signatureToken: string): Promise<void> {
    const overloads = this.schemas.get(schema)?.get(name);
    if (overloads?.delete(signatureToken) !== true) throw new EngineError('NOT_FOUND', 'Function not found');
    if (overloads.size === 0) this.schemas.get(schema)!.delete(name);
  }

  dropSchema(schema: string): void {
    this.schemas.delete(schema);
  }
}
