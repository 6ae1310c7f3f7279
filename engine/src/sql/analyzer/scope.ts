// Name resolution: the fields a query block can see, and the outer blocks it may correlate with.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Symbol } from '../planner/row-expression.js';

export interface Field {
  /** Column name as the user refers to it; undefined for unnamed expressions. */
  name: string | undefined;
  /** What qualifies it: a table alias (['t']) or a table's full name (['memory', 'default', 't']). */
  qualifier: string[] | undefined;
  symbol: Symbol;
  /** Hidden fields resolve only by qualified name and do not expand in `*` (each side's copy of a USING column). */
  hidden?: boolean;
  /** The table column whose values it carries unchanged, if any (DESCRIBE OUTPUT's catalog, schema and table). */
  origin?: ColumnOrigin;
  /** Whether a select list named it with AS (DESCRIBE OUTPUT's Aliased). */
  aliased?: boolean;
}

export interface ColumnOrigin {
  catalog: string;
  schema: string;
  table: string;
}

export interface ResolvedField {
  field: Field;
  /** 0 = this query block, 1 = the enclosing block (a correlated reference), ... */
  depth: number;
}

export class Scope {
  constructor(
    readonly fields: Field[],
    readonly outer?: Scope,
  ) {}

  /** Resolves `parts` (`a`, `t.a`, `s.t.a`, `c.s.t.a`); undefined when nothing matches anywhere. */
  tryResolve(parts: readonly string[], location: SourceLocation): ResolvedField | undefined {
    let scope: Scope | undefined = this;
    let depth = 0;
    while (scope) {
      const matches = scope.fields.filter((f) => matchesField(f, parts));
      if (matches.length > 1 && !allSameSymbol(matches)) {
        throw new EngineError('AMBIGUOUS_NAME', `Column '${parts.join('.')}' is ambiguous`, location);
      }
      if (matches.length > 0) return { field: matches[0], depth };
      scope = scope.outer;
      depth++;
    }
    return undefined;
  }

  /** Resolves `parts` to a field whose values a query can use; fails naming what is missing or unusable. */
  resolve(parts: readonly string[], location: SourceLocation): ResolvedField {
    const found = this.tryResolve(parts, location);
    if (!found) throw new EngineError('COLUMN_NOT_FOUND', `Column '${parts.join('.')}' cannot be resolved`, location);
    usable(found.field, location);
    return found;
  }

  /** True when some field of this block (not outer blocks) is qualified by `qualifier`. */
  hasQualifier(qualifier: readonly string[]): boolean {
    return this.fields.some((f) => f.qualifier !== undefined && endsWith(f.qualifier, qualifier));
  }

  withOuter(outer: Scope | undefined): Scope {
    return new Scope(this.fields, outer);
  }
}

/**
 * The field, when the engine can process its values: a column of a type it does not support yet (a
 * nested Parquet column: array, map, row) fails every reference to it, naming the column and type.
 */
export function usable(field: Field, location: SourceLocation): Field {
  const type = field.symbol.type;
  if (type.kind === 'unsupported') {
    throw new EngineError(
      'NOT_SUPPORTED',
      `Column '${field.name ?? field.symbol.name}' has type ${type.name}, which is not supported yet`,
      location,
    );
  }
  return field;
}

/**
 * Names match ignoring case, quoted or not, as Trino's Field.canResolve does: an unquoted `d` finds a
 * column named "D" (two columns that differ only in case make the reference ambiguous).
 */
export function sameName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

function matchesField(field: Field, parts: readonly string[]): boolean {
  const name = parts[parts.length - 1];
  if (field.name === undefined || !sameName(field.name, name)) return false;
  if (parts.length === 1) return !field.hidden;
  return field.qualifier !== undefined && endsWith(field.qualifier, parts.slice(0, -1));
}

export function endsWith(qualifier: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length > qualifier.length) return false;
  const offset = qualifier.length - suffix.length;
  return suffix.every((p, i) => sameName(qualifier[offset + i], p));
}

function allSameSymbol(fields: Field[]): boolean {
  return fields.every((f) => f.symbol.id === fields[0].symbol.id);
}
