// Analysis of a SQL routine's specification into a Routine (routine.ts), with Trino's checks and
// messages (its SqlRoutineAnalyzer): characteristics given once, named distinct parameters, a body
// that ends in RETURN, variables declared once per block and set only when declared, labels
// defined where ITERATE / LEAVE name them, expressions of the type their place needs (coerced
// where they can be), no queries in expressions, and the declared determinism matching the body's.
//
// Expressions are translated like any other, over a scope whose fields are the variables in sight
// (as Trino analyzes them); their references then become the routine's `variable`s.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import { BOOLEAN, type SqlType, typeName, typesEqual } from '../../types/types.js';
import { canCoerce, commonSuperType } from '../../types/coercion.js';
import { isDeterministicFunction } from '../../functions/scalar/registry.js';
import { queryMaxExecutionMillis } from '../../config/query-time-limit.js';
import type * as ast from '../parser/ast.js';
import { children, replaceSymbols, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { sqlTypeOf } from '../analyzer/type-spec.js';
import { Scope, type Field } from '../analyzer/scope.js';
import { comparison, coerce, translateExpression } from '../analyzer/expression-translator.js';
import { containsSubquery } from '../analyzer/ast-utils.js';
import { withSessionZones } from '../analyzer/implicit-zone-casts.js';
import type { Routine, RoutineStatement, RoutineVariable } from './routine.js';

interface Variable extends RoutineVariable {
  symbol: Symbol;
}

/** What is in sight at a statement: variables and loop labels by name (each block's own copy). */
interface Context {
  variables: Map<string, Variable>;
  labels: Map<string, string>;
}

const newScope = (c: Context): Context => ({ variables: new Map(c.variables), labels: new Map(c.labels) });

/** The characteristics of a specification, each given at most once. */
export interface Characteristics {
  language?: string;
  deterministic: boolean;
  calledOnNullInput: boolean;
  security?: 'DEFINER' | 'INVOKER';
  comment?: string;
}

const CLAUSE_NAMES: Record<ast.RoutineCharacteristic['kind'], string> = {
  Language: 'language',
  Deterministic: 'deterministic',
  NullInput: 'null-call',
  Security: 'security',
  RoutineComment: 'comment',
  RoutineProperties: 'properties',
};

export function characteristicsOf(spec: ast.FunctionSpecification): Characteristics {
  const seen = new Set<string>();
  const result: Characteristics = { deterministic: true, calledOnNullInput: true };
  for (const c of spec.characteristics) {
    if (seen.has(c.kind)) throw new EngineError('SYNTAX_ERROR', `Multiple ${CLAUSE_NAMES[c.kind]} clauses specified`, c.location);
    seen.add(c.kind);
    if (c.kind === 'Language') result.language = c.language.value.toUpperCase();
    else if (c.kind === 'Deterministic') result.deterministic = c.deterministic;
    else if (c.kind === 'NullInput') result.calledOnNullInput = c.calledOnNullInput;
    else if (c.kind === 'Security') result.security = c.security;
    else if (c.kind === 'RoutineComment') result.comment = c.comment;
    else if (c.properties.length > 0 && (result.language ?? 'SQL') === 'SQL') {
      throw new EngineError('INVALID_FUNCTION_PROPERTY', "Function language 'SQL' does not support properties", c.properties[0].location);
    }
  }
  const language = result.language ?? 'SQL';
  if (language === 'SQL' && spec.body.kind === 'FunctionDefinition')
    throw new EngineError('SYNTAX_ERROR', "Functions using language 'SQL' must be defined using SQL", spec.body.location);
  if (language !== 'SQL' && spec.body.kind !== 'FunctionDefinition')
    throw new EngineError('SYNTAX_ERROR', "Only functions using language 'SQL' may be defined using SQL", spec.body.location);
  if (language !== 'SQL') throw new EngineError('NOT_SUPPORTED', `Function language ${language} is not supported`, spec.location);
  return result;
}

/** The parameters' names and types, checked: each named, no name twice. */
export function parametersOf(spec: ast.FunctionSpecification): { name: string; type: SqlType }[] {
  const names = new Set<string>();
  return spec.declaration.parameters.map((p) => {
    if (p.name === undefined) throw new EngineError('INVALID_ARGUMENTS', 'Function parameters must have a name', p.location);
    const name = p.name.value.toLowerCase();
    if (names.has(name)) throw new EngineError('INVALID_ARGUMENTS', `Duplicate function parameter name: ${name}`, p.location);
    names.add(name);
    return { name, type: sqlTypeOf(p.type) };
  });
}

/** The routine's simple name, checked: no '@' or '$' (Trino's rule). It may be a built-in function's (routine-calls.ts). */
export function routineName(spec: ast.FunctionSpecification): string {
  const name = spec.declaration.name.parts[spec.declaration.name.parts.length - 1].value.toLowerCase();
  if (name.includes('@') || name.includes('$'))
    throw new EngineError('NOT_SUPPORTED', "Function name cannot contain '@' or '$'", spec.location);
  return name;
}

export function analyzeRoutine(spec: ast.FunctionSpecification, session: Session): Routine {
  const name = routineName(spec);
  const characteristics = characteristicsOf(spec);
  const returnType = sqlTypeOf(spec.returnType);
  const body = spec.body as ast.ControlStatement;
  const last = body.kind === 'CompoundStatement' ? body.statements[body.statements.length - 1] : body;
  if (last?.kind !== 'ReturnStatement') throw new EngineError('MISSING_RETURN', 'Function must end in a RETURN statement', body.location);
  const analyzer = new BodyAnalyzer(session, returnType);
  const context: Context = { variables: new Map(), labels: new Map() };
  const parameters = parametersOf(spec).map((p) => analyzer.variable(context, p.name, p.type, spec.location));
  const statements = body.kind === 'CompoundStatement' ? analyzer.compound(body, context) : analyzer.statements([body], context);
  const deterministic = analyzer.deterministic;
  if (!characteristics.deterministic && deterministic)
    throw new EngineError('INVALID_ARGUMENTS', 'Deterministic function declared NOT DETERMINISTIC', spec.location);
  if (characteristics.deterministic && !deterministic)
    throw new EngineError('INVALID_ARGUMENTS', 'Non-deterministic function declared DETERMINISTIC', spec.location);
  return {
    name,
    parameters: parameters.map(({ id, type }) => ({ id, type })),
    returnType,
    calledOnNullInput: characteristics.calledOnNullInput,
    deterministic,
    body: statements,
    timeLimitMillis: queryMaxExecutionMillis(session),
  };
}

class BodyAnalyzer {
  private nextId = 0;
  private nextLabel = 0;
  /** Whether every function the body calls is deterministic. */
  deterministic = true;

  constructor(
    private readonly session: Session,
    private readonly returnType: SqlType,
  ) {}

  variable(context: Context, name: string, type: SqlType, location: SourceLocation): Variable {
    // A block sees the variables around it: declaring one of their names again is an error too, as in Trino.
    if (context.variables.has(name)) {
      throw new EngineError('ALREADY_EXISTS', `Variable already declared in this scope: ${name}`, location);
    }
    const id = this.nextId++;
    const variable: Variable = { id: `@${id}`, type, symbol: { id, name, type } };
    context.variables.set(name, variable);
    return variable;
  }

  compound(block: ast.CompoundStatement, outer: Context): RoutineStatement[] {
    const context = newScope(outer);
    const declarations: RoutineStatement[] = [];
    for (const declaration of block.variables) {
      const type = sqlTypeOf(declaration.type);
      // The DEFAULT sees the variables declared before this declaration, not its own names.
      const value = declaration.defaultValue && this.typed(context, declaration.defaultValue, type, 'Value of DEFAULT');
      for (const name of declaration.names) {
        const variable = this.variable(context, name.value.toLowerCase(), type, name.location);
        declarations.push({ kind: 'declare', variable: { id: variable.id, type }, ...(value ? { value } : {}) });
      }
    }
    return [...declarations, ...this.statements(block.statements, context)];
  }

  statements(list: readonly ast.ControlStatement[], context: Context): RoutineStatement[] {
    return list.map((s) => this.statement(s, context));
  }

  private statement(s: ast.ControlStatement, context: Context): RoutineStatement {
    switch (s.kind) {
      case 'ReturnStatement':
        return { kind: 'return', value: this.typed(context, s.value, this.returnType, 'Value of RETURN') };
      case 'AssignmentStatement': {
        const name = s.target.value.toLowerCase();
        const variable = context.variables.get(name);
        if (variable === undefined) throw new EngineError('NOT_FOUND', `Variable cannot be resolved: ${name}`, s.target.location);
        return { kind: 'set', variable: variable.id, value: this.typed(context, s.value, variable.type, `Value of SET '${name}'`) };
      }
      case 'CompoundStatement':
        return { kind: 'block', statements: this.compound(s, context) };
      case 'IfStatement': {
        const otherwise = s.elseStatements ? this.statements(s.elseStatements, context) : [];
        const elseIfs = s.elseIfClauses.reduceRight<RoutineStatement[]>(
          (rest, clause) => [
            {
              kind: 'if',
              condition: this.typed(context, clause.condition, BOOLEAN, 'Condition of ELSEIF clause'),
              then: this.statements(clause.statements, context),
              otherwise: rest,
            },
          ],
          otherwise,
        );
        return {
          kind: 'if',
          condition: this.typed(context, s.condition, BOOLEAN, 'Condition of IF statement'),
          then: this.statements(s.statements, context),
          otherwise: elseIfs,
        };
      }
      case 'CaseStatement':
        return this.caseStatement(s, context);
      case 'LoopStatement':
      case 'WhileStatement':
      case 'RepeatStatement': {
        const inner = newScope(context);
        const label = this.defineLabel(inner, s.label);
        if (s.kind === 'LoopStatement') return { kind: 'loop', label, body: this.statements(s.statements, inner) };
        if (s.kind === 'WhileStatement') {
          const condition = this.typed(inner, s.condition, BOOLEAN, 'Condition of WHILE statement');
          return { kind: 'loop', label, while: condition, body: this.statements(s.statements, inner) };
        }
        const until = this.typed(inner, s.condition, BOOLEAN, 'Condition of REPEAT statement');
        return { kind: 'loop', label, until, body: this.statements(s.statements, inner) };
      }
      case 'IterateStatement':
      case 'LeaveStatement': {
        const name = s.label.value.toLowerCase();
        const label = context.labels.get(name);
        if (label === undefined) throw new EngineError('NOT_FOUND', `Label not defined: ${name}`, s.label.location);
        return { kind: s.kind === 'IterateStatement' ? 'iterate' : 'leave', label };
      }
    }
  }

  /** CASE as a chain of IFs; a simple CASE compares its value, computed once, with each WHEN value. */
  private caseStatement(s: ast.CaseStatement, outer: Context): RoutineStatement {
    const otherwise = s.elseStatements ? this.statements(s.elseStatements, outer) : [];
    if (s.operand === undefined) {
      return this.chain(s, outer, otherwise, (clause) => this.typed(outer, clause.condition, BOOLEAN, 'Condition of WHEN clause'));
    }
    const context = newScope(outer);
    const value = this.translate(context, s.operand);
    const variable = this.variable(context, `$case${this.nextId}`, value.type, s.location);
    const reference: RowExpression = { kind: 'variable', name: variable.id, type: value.type };
    const chain = this.chain(s, context, otherwise, (clause) => {
      const when = this.translate(context, clause.condition);
      const common = commonSuperType(value.type, when.type);
      if (common === undefined) {
        throw new EngineError(
          'TYPE_MISMATCH',
          `WHEN clause value must evaluate to CASE value type ${typeName(value.type)} (actual: ${typeName(when.type)})`,
          clause.condition.location,
        );
      }
      return comparison('=', coerce(reference, common), coerce(when, common), clause.location);
    });
    return { kind: 'block', statements: [{ kind: 'declare', variable: { id: variable.id, type: value.type }, value }, chain] };
  }

  private chain(
    s: ast.CaseStatement,
    context: Context,
    otherwise: RoutineStatement[],
    condition: (clause: ast.ConditionalStatements) => RowExpression,
  ): RoutineStatement {
    const ifs = s.whenClauses.reduceRight<RoutineStatement[]>(
      (rest, clause) => [{ kind: 'if', condition: condition(clause), then: this.statements(clause.statements, context), otherwise: rest }],
      otherwise,
    );
    return ifs[0];
  }

  private defineLabel(context: Context, label: ast.Identifier | undefined): string {
    const id = `L${this.nextLabel++}`;
    if (label === undefined) return id;
    const name = label.value.toLowerCase();
    if (context.labels.has(name)) throw new EngineError('ALREADY_EXISTS', `Label already declared in this scope: ${name}`, label.location);
    context.labels.set(name, id);
    return id;
  }

  /** `e` as a value of `type`, coerced where it can be; `what` names its place in the message otherwise. */
  private typed(context: Context, e: ast.Expression, type: SqlType, what: string): RowExpression {
    const value = this.translate(context, e);
    if (typesEqual(value.type, type)) return value;
    if (value.type.kind !== 'unknown' && !canCoerce(value.type, type)) {
      throw new EngineError('TYPE_MISMATCH', `${what} must evaluate to ${typeName(type)} (actual: ${typeName(value.type)})`, e.location);
    }
    // A coercion to a zoned type reads the session's zone, as the translator's own coercions do.
    return withSessionZones(coerce(value, type, e.location), this.session);
  }

  private translate(context: Context, e: ast.Expression): RowExpression {
    if (containsSubquery(e)) throw new EngineError('NOT_SUPPORTED', 'Queries are not allowed in functions', e.location);
    const variables = [...context.variables.values()];
    const fields: Field[] = variables.map((v) => ({ name: v.symbol.name, qualifier: undefined, symbol: v.symbol }));
    const translated = translateExpression(e, { scope: new Scope(fields), session: this.session, parameters: [] });
    const byId = new Map(variables.map((v) => [v.symbol.id, v]));
    const result = replaceSymbols(translated, (symbol) => {
      const variable = byId.get(symbol.id);
      return variable && { kind: 'variable', name: variable.id, type: variable.type };
    });
    this.noteDeterminism(result);
    return result;
  }

  private noteDeterminism(e: RowExpression): void {
    if (e.kind === 'call' && !isDeterministicFunction(e.name)) this.deterministic = false;
    if (e.kind === 'routine' && !e.routine.deterministic) this.deterministic = false;
    for (const c of children(e)) this.noteDeterminism(c);
  }
}
