// The SQL routines a statement may call: its inline ones (WITH FUNCTION) and the catalog ones it
// names (CREATE FUNCTION), loaded before planning. Each is analyzed on its first call, with every
// routine of the scope visible to its body, as Trino's language function manager does: a routine
// whose analysis reaches itself (directly or through others) is recursive, which Trino does not
// support, and fails with NOT_SUPPORTED instead of recursing.
//
// The expression translator finds the scope through the session the statement is planned in
// (routinesOf), set for the synchronous span of planning (withRoutines) or, for the catalog routines
// of a statement, for its whole execution on a session object of its own (withRoutinesWhile).

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import type { FunctionSpecification } from '../parser/ast.js';
import { formatType } from '../parser/expression-formatter.js';
import type { Routine } from './routine.js';

export interface RoutineDeclaration {
  /** How calls name it: `name` (inline, or on the SQL path), `catalog.schema.name`. */
  readonly names: readonly string[];
  /** Declared by the query (WITH FUNCTION): found before built-in functions, which come before the SQL path's routines. */
  readonly inline: boolean;
  readonly specification: FunctionSpecification;
  /** Analyzes the specification (routine-analyzer.ts) with the scope's routines visible. */
  readonly analyze: () => Routine;
}

export class RoutineScope {
  private readonly declarations: RoutineDeclaration[];

  /** A scope holding `outer`'s routines after its own (a query's inline routines hide the catalog's of the same signature). */
  constructor(private readonly outer?: RoutineScope) {
    this.declarations = [];
  }
  private readonly analyzed = new Map<RoutineDeclaration, Routine>();
  private readonly analyzing = new Set<RoutineDeclaration>();

  add(declaration: RoutineDeclaration): void {
    this.declarations.push(declaration);
  }

  get isEmpty(): boolean {
    return this.declarations.length === 0 && (this.outer?.isEmpty ?? true);
  }

  /** The routines a call of `name` (lower case, dotted) may mean: inline ones first, which hide catalog ones of the same signature. */
  candidates(name: string): RoutineDeclaration[] {
    const own = this.declarations.filter((d) => d.names.includes(name));
    return this.outer === undefined ? own : [...own, ...this.outer.candidates(name)];
  }

  /** Whether an inline routine is named `name`: it hides a built-in aggregate or window function of that name, as in Trino. */
  hasInline(name: string): boolean {
    return this.candidates(name.toLowerCase()).some((d) => d.inline);
  }

  /** Whether some routine is named `name` (a call of it is no unknown function). */
  has(name: string): boolean {
    return this.candidates(name.toLowerCase()).length > 0;
  }

  routine(declaration: RoutineDeclaration): Routine {
    if (this.outer !== undefined && !this.declarations.includes(declaration)) return this.outer.routine(declaration);
    const done = this.analyzed.get(declaration);
    if (done !== undefined) return done;
    if (this.analyzing.has(declaration)) {
      throw new EngineError(
        'NOT_SUPPORTED',
        `Recursive language functions are not supported: ${nameSignature(declaration.specification)}`,
        declaration.specification.location,
      );
    }
    this.analyzing.add(declaration);
    try {
      const routine = declaration.analyze();
      this.analyzed.set(declaration, routine);
      return routine;
    } finally {
      this.analyzing.delete(declaration);
    }
  }
}

/** `name(type, ...):type`, as Trino names a routine in messages (its signature with the return type). */
function nameSignature(spec: FunctionSpecification): string {
  const name = spec.declaration.name.parts.map((p) => p.value).join('.');
  return `${name}(${spec.declaration.parameters.map((p) => formatType(p.type)).join(', ')}):${formatType(spec.returnType)}`;
}

const active = new WeakMap<Session, RoutineScope>();
/** The scope of the query being planned (planning is synchronous), for checks that have no session at hand. */
let planning: RoutineScope | undefined;

/**
 * Whether a call of the simple `name` means an inline routine of the query being planned rather
 * than a built-in aggregate: Trino takes a name for an aggregate only when the first schema of its
 * path holding the name (the query's inline routines come first) holds an aggregate.
 */
export function inlineRoutineNamed(name: string): boolean {
  return planning?.hasInline(name) === true;
}

/** Runs `plan` (synchronous) with `scope` as the routines of the statement planned in `session` (none: the session's own, and no inline routines). */
export function withRoutines<T>(session: Session, scope: RoutineScope | undefined, plan: () => T): T {
  const previous = active.get(session);
  const previousPlanning = planning;
  if (scope !== undefined) active.set(session, scope);
  planning = scope;
  try {
    return plan();
  } finally {
    planning = previousPlanning;
    if (previous === undefined) active.delete(session);
    else active.set(session, previous);
  }
}

/** Runs `statement` (asynchronous) with `scope` as the routines of `session`, an object of that statement's own. */
export async function withRoutinesWhile<T>(session: Session, scope: RoutineScope, statement: () => Promise<T>): Promise<T> {
  const previous = active.get(session);
  active.set(session, scope);
  try {
    return await statement();
  } finally {
    if (previous === undefined) active.delete(session);
    else active.set(session, previous);
  }
}

/** Makes `scope` the routines of `session` for good: a session object made for one view's routines. */
export function bindRoutines(session: Session, scope: RoutineScope): void {
  active.set(session, scope);
}

export function routinesOf(session: Session): RoutineScope | undefined {
  return active.get(session);
}
