// SQL routines: CREATE / DROP FUNCTION and WITH FUNCTION specifications, with the control
// statements of a routine body (RETURN, SET, CASE, IF, LOOP, WHILE, REPEAT, BEGIN ... END).

import type { Expression, Identifier, NodeBase, Property, QualifiedName, TypeSpec } from './ast.js';

export type RoutineStatement = CreateFunction | DropFunction;

export interface CreateFunction extends NodeBase {
  kind: 'CreateFunction';
  replace: boolean;
  specification: FunctionSpecification;
}
export interface DropFunction extends NodeBase {
  kind: 'DropFunction';
  exists: boolean;
  declaration: FunctionDeclaration;
}

/** `name(parameters)` */
export interface FunctionDeclaration extends NodeBase {
  kind: 'FunctionDeclaration';
  name: QualifiedName;
  parameters: ParameterDeclaration[];
}
export interface ParameterDeclaration extends NodeBase {
  kind: 'ParameterDeclaration';
  name?: Identifier;
  type: TypeSpec;
}
/** FUNCTION name(...) RETURNS type characteristics... (a control statement | AS $$ text $$); located at FUNCTION. */
export interface FunctionSpecification extends NodeBase {
  kind: 'FunctionSpecification';
  declaration: FunctionDeclaration;
  returnType: TypeSpec;
  characteristics: RoutineCharacteristic[];
  body: ControlStatement | FunctionDefinition;
}
/** `AS $$ ... $$`: a body in another language, kept as text. */
export interface FunctionDefinition extends NodeBase {
  kind: 'FunctionDefinition';
  text: string;
}

export type RoutineCharacteristic =
  | { kind: 'Language'; language: Identifier; location: NodeBase['location'] }
  | { kind: 'Deterministic'; deterministic: boolean; location: NodeBase['location'] }
  /** RETURNS NULL ON NULL INPUT (false) or CALLED ON NULL INPUT (true). */
  | { kind: 'NullInput'; calledOnNullInput: boolean; location: NodeBase['location'] }
  | { kind: 'Security'; security: 'DEFINER' | 'INVOKER'; location: NodeBase['location'] }
  | { kind: 'RoutineComment'; comment: string; location: NodeBase['location'] }
  | { kind: 'RoutineProperties'; properties: Property[]; location: NodeBase['location'] };

export type ControlStatement =
  | ReturnStatement
  | AssignmentStatement
  | CaseStatement
  | IfStatement
  | IterateStatement
  | LeaveStatement
  | CompoundStatement
  | LoopStatement
  | WhileStatement
  | RepeatStatement;

export interface ReturnStatement extends NodeBase {
  kind: 'ReturnStatement';
  value: Expression;
}
/** SET name = value */
export interface AssignmentStatement extends NodeBase {
  kind: 'AssignmentStatement';
  target: Identifier;
  value: Expression;
}
/** CASE [operand] WHEN ... THEN statements; ... [ELSE statements;] END CASE */
export interface CaseStatement extends NodeBase {
  kind: 'CaseStatement';
  operand?: Expression;
  whenClauses: ConditionalStatements[];
  elseStatements?: ControlStatement[];
}
/** A condition (or CASE value) and the statements it guards. */
export interface ConditionalStatements extends NodeBase {
  kind: 'ConditionalStatements';
  condition: Expression;
  statements: ControlStatement[];
}
/** IF condition THEN statements; [ELSEIF ...] [ELSE statements;] END IF */
export interface IfStatement extends NodeBase {
  kind: 'IfStatement';
  condition: Expression;
  statements: ControlStatement[];
  elseIfClauses: ConditionalStatements[];
  elseStatements?: ControlStatement[];
}
export interface IterateStatement extends NodeBase {
  kind: 'IterateStatement';
  label: Identifier;
}
export interface LeaveStatement extends NodeBase {
  kind: 'LeaveStatement';
  label: Identifier;
}
/** BEGIN [DECLARE ...;]... [statements;] END */
export interface CompoundStatement extends NodeBase {
  kind: 'CompoundStatement';
  variables: VariableDeclaration[];
  statements: ControlStatement[];
}
/** DECLARE a, b type [DEFAULT value] */
export interface VariableDeclaration extends NodeBase {
  kind: 'VariableDeclaration';
  names: Identifier[];
  type: TypeSpec;
  defaultValue?: Expression;
}
/** [label:] LOOP statements; END LOOP */
export interface LoopStatement extends NodeBase {
  kind: 'LoopStatement';
  label?: Identifier;
  statements: ControlStatement[];
}
/** [label:] WHILE condition DO statements; END WHILE */
export interface WhileStatement extends NodeBase {
  kind: 'WhileStatement';
  label?: Identifier;
  condition: Expression;
  statements: ControlStatement[];
}
/** [label:] REPEAT statements; UNTIL condition END REPEAT */
export interface RepeatStatement extends NodeBase {
  kind: 'RepeatStatement';
  label?: Identifier;
  statements: ControlStatement[];
  condition: Expression;
}
