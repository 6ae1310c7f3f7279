// The views of a memory catalog, by schema: definitions held in this process (on the coordinator,
// which analyzes every query), gone with it as the catalog's tables are.

import { EngineError } from '../../errors/engine-error.js';
import type { ViewDefinition } from '../../spi/view.js';

export class MemoryViews {
  private readonly schemas = new Map<string, Map<string, ViewDefinition>>();

  names(schema: string): string[] {
    return [...(this.schemas.get(schema)?.keys() ?? [])].sort();
  }

  get(schema: string, view: string): ViewDefinition | undefined {
    return this.schemas.get(schema)?.get(view);
  }

  /** `qualified` names the view in errors. */
  put(schema: string, view: string, definition: ViewDefinition, replace: boolean, qualified: string): void {
    let views = this.schemas.get(schema);
    if (views === undefined) {
      views = new Map();
      this.schemas.set(schema, views);
    }
    if (views.has(view) && !replace) throw new EngineError('TABLE_ALREADY_EXISTS', `View already exists: '${qualified}'`);
    views.set(view, Object.freeze({ ...definition, columns: definition.columns.map((c) => Object.freeze({ ...c })) }));
  }

  drop(schema: string, view: string, qualified: string): void {
    if (this.schemas.get(schema)?.delete(view) !== true) throw new EngineError('TABLE_NOT_FOUND', `View '${qualified}' does not exist`);
  }

  dropSchema(schema: string): void {
    this.schemas.delete(schema);
  }
}
