// The arguments of a table function invocation matched to the function's declared arguments, as
// Trino's analyzer matches them: all by name or all by position, defaults for the ones left out,
// and each argument's kind (scalar expression, TABLE(...), DESCRIPTOR(...)) checked against its
// declaration. Argument names compare in their canonical (upper case unless quoted) form.

import { EngineError, type SourceLocation } from '../../../errors/engine-error.js';
import type { Scalar } from '../../../types/scalar.js';
import type { SqlType } from '../../../types/types.js';
import type * as ast from '../../parser/ast.js';
import type { DescriptorArgument, TableArgument, TableFunctionArgument, TableFunctionInvocation } from '../../parser/ast-relations.js';
import type { RelationPlan } from '../relation-plan.js';

/** A declared argument; a scalar with a `defaultValue` may be left out. Table arguments have row semantics. */
export type ArgumentSpecification =
  | { kind: 'scalar'; name: string; type: SqlType; defaultValue?: Scalar }
  | { kind: 'table'; name: string }
  | { kind: 'descriptor'; name: string };

/** A passed argument, with where it was written (the invocation's name for a default). */
export type BoundArgument =
  | { kind: 'scalar'; value: Scalar; location: SourceLocation }
  | { kind: 'table'; relation: RelationPlan; location: SourceLocation }
  | { kind: 'descriptor'; descriptor: DescriptorArgument; location: SourceLocation };

/** How the arguments' values are found, in the order they are written (as Trino analyzes them). */
export interface ArgumentAnalyzer {
  /** A scalar argument's constant expression, evaluated as `type`. */
  scalar(expression: ast.Expression, type: SqlType): Scalar;
  /** A table argument's relation, planned. */
  table(argument: TableArgument, specification: ArgumentSpecification, location: SourceLocation): RelationPlan;
}

/** The arguments of `invocation` by declared name. */
export function bindArguments(
  specifications: readonly ArgumentSpecification[],
  invocation: TableFunctionInvocation,
  analyzer: ArgumentAnalyzer,
): Map<string, BoundArgument> {
  const passed = invocation.arguments;
  const at = invocation.name.location;
  if (passed.length > specifications.length) {
    throw new EngineError(
      'INVALID_ARGUMENTS',
      `Too many arguments. Expected at most ${specifications.length} arguments, got ${passed.length} arguments`,
      at,
    );
  }
  const byName = passed.length > 0 && passed.every((a) => a.name !== undefined);
  if (!byName && passed.some((a) => a.name !== undefined)) {
    throw new EngineError('INVALID_ARGUMENTS', 'All arguments must be passed by name or all must be passed positionally', at);
  }
  const bound = new Map<string, BoundArgument>();
  if (byName) {
    for (const argument of passed) {
      const name = canonicalName(argument.name!);
      if (bound.has(name)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Duplicate argument name: ${name}`, argument.location);
      const specification = specifications.find((s) => s.name === name);
      if (specification === undefined)
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Unexpected argument name: ${name}`, argument.location);
      bound.set(name, bindArgument(specification, argument, analyzer));
    }
  } else passed.forEach((argument, i) => bound.set(specifications[i].name, bindArgument(specifications[i], argument, analyzer)));
  for (const specification of specifications) {
    if (!bound.has(specification.name)) bound.set(specification.name, defaultArgument(specification, at));
  }
  return bound;
}

/** An identifier as Trino compares argument names: upper case, unless it was quoted. */
export function canonicalName(identifier: ast.Identifier): string {
  return identifier.quoted ? identifier.value : identifier.value.toUpperCase();
}

function bindArgument(specification: ArgumentSpecification, argument: TableFunctionArgument, analyzer: ArgumentAnalyzer): BoundArgument {
  const value = argument.value;
  const location = argument.location;
  const actual = value.kind === 'TableArgument' ? 'table' : value.kind === 'DescriptorArgument' ? 'descriptor' : 'expression';
  const mismatch = (expected: string) =>
    new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid argument ${specification.name}. Expected ${expected}, got ${actual}`, location);
  switch (specification.kind) {
    case 'table':
      if (value.kind === 'TableArgument') return { kind: 'table', relation: analyzer.table(value, specification, location), location };
      if (value.kind === 'FunctionCall') {
        throw new EngineError(
          'NOT_SUPPORTED',
          `Invalid table argument ${specification.name}. Table functions are not allowed as table function arguments`,
          location,
        );
      }
      throw mismatch('table');
    case 'descriptor':
      if (value.kind === 'DescriptorArgument' && value.fields?.length !== 0) return { kind: 'descriptor', descriptor: value, location };
      if (value.kind === 'DescriptorArgument' || (value.kind !== 'TableArgument' && isDescriptorCall(value))) {
        throw new EngineError(
          'INVALID_FUNCTION_ARGUMENT',
          `Invalid descriptor argument ${specification.name}. Descriptors should be formatted as 'DESCRIPTOR(name [type], ...)'`,
          location,
        );
      }
      throw mismatch('descriptor');
    case 'scalar':
      if (value.kind === 'TableArgument' || value.kind === 'DescriptorArgument') throw mismatch('expression');
      if (isDescriptorCall(value))
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', "'descriptor' function is not allowed as a table function argument", location);
      return { kind: 'scalar', value: analyzer.scalar(value, specification.type), location };
  }
}

function defaultArgument(specification: ArgumentSpecification, at: SourceLocation): BoundArgument {
  if (specification.kind !== 'scalar' || specification.defaultValue === undefined) {
    throw new EngineError('MISSING_ARGUMENT', `Missing argument: ${specification.name}`, at);
  }
  return { kind: 'scalar', value: specification.defaultValue, location: at };
}

/** `descriptor(...)` that did not parse as a descriptor (an empty one), seen as a function call. */
function isDescriptorCall(value: ast.Expression): boolean {
  return value.kind === 'FunctionCall' && value.name.parts[value.name.parts.length - 1].value.toLowerCase() === 'descriptor';
}
