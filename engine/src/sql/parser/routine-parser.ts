// SQL routines: `FUNCTION name(params) RETURNS type characteristics body` (in CREATE FUNCTION and
// WITH FUNCTION), DROP FUNCTION's declaration, and the control statements of a routine body.

import type {
  ConditionalStatements,
  ControlStatement,
  Expression,
  FunctionDeclaration,
  FunctionSpecification,
  ParameterDeclaration,
  Property,
  RoutineCharacteristic,
  VariableDeclaration,
} from './ast.js';
import { ExpressionParser } from './expression-parser.js';
import type { SourceLocation } from '../../errors/engine-error.js';

/** Words that end a list of control statements. */
const LIST_ENDS = ['END', 'ELSE', 'ELSEIF', 'WHEN', 'UNTIL'];

export abstract class RoutineParser extends ExpressionParser {
  /** At FUNCTION: the whole specification. */
  protected parseFunctionSpecification(): FunctionSpecification {
    const location = this.location(this.expectKeyword('FUNCTION'));
    const declaration = this.parseFunctionDeclaration();
    this.expectKeyword('RETURNS');
    const returnType = this.parseType();
    const characteristics: RoutineCharacteristic[] = [];
    for (let c = this.parseRoutineCharacteristic(); c; c = this.parseRoutineCharacteristic()) characteristics.push(c);
    if (this.atKeyword('AS') && this.peek().kind === 'dollarString') {
      this.pos++;
      const body = this.advance();
      return {
        kind: 'FunctionSpecification',
        declaration,
        returnType,
        characteristics,
        body: { kind: 'FunctionDefinition', text: body.value, location: this.location(body) },
        location,
      };
    }
    return { kind: 'FunctionSpecification', declaration, returnType, characteristics, body: this.parseControlStatement(), location };
  }

  /** `name([name] type, ...)` */
  protected parseFunctionDeclaration(): FunctionDeclaration {
    const location = this.location();
    const name = this.parseQualifiedName();
    const parameters = this.parseEnclosedList('(', ')', (): ParameterDeclaration => {
      const parameterLocation = this.location();
      return { kind: 'ParameterDeclaration', ...this.parseOptionallyNamedType(), location: parameterLocation };
    });
    return { kind: 'FunctionDeclaration', name, parameters, location };
  }

  private parseRoutineCharacteristic(): RoutineCharacteristic | undefined {
    const location = this.location();
    if (this.acceptKeyword('LANGUAGE')) return { kind: 'Language', language: this.parseIdentifier(), location };
    if (this.acceptKeyword('DETERMINISTIC')) return { kind: 'Deterministic', deterministic: true, location };
    if (this.acceptKeywords('NOT', 'DETERMINISTIC')) return { kind: 'Deterministic', deterministic: false, location };
    if (this.acceptKeywords('RETURNS', 'NULL')) {
      this.expectKeywords('ON', 'NULL', 'INPUT');
      return { kind: 'NullInput', calledOnNullInput: false, location };
    }
    if (this.acceptKeyword('CALLED')) {
      this.expectKeywords('ON', 'NULL', 'INPUT');
      return { kind: 'NullInput', calledOnNullInput: true, location };
    }
    if (this.acceptKeyword('SECURITY')) return { kind: 'Security', security: this.parseSecurity(), location };
    if (this.acceptKeyword('COMMENT')) return { kind: 'RoutineComment', comment: this.parseStringValue(), location };
    if (this.atKeyword('WITH') && this.isSymbol('(', this.peek()))
      return { kind: 'RoutineProperties', properties: this.parseOptionalProperties(), location };
    return undefined;
  }

  protected parseSecurity(): 'DEFINER' | 'INVOKER' {
    if (this.acceptKeyword('DEFINER')) return 'DEFINER';
    this.expectKeyword('INVOKER');
    return 'INVOKER';
  }

  /** `WITH (name = value, ...)`; the WITH of `WITH [NO] DATA` is left alone. */
  protected parseOptionalProperties(): Property[] {
    if (!this.atKeyword('WITH') || !this.isSymbol('(', this.peek())) return [];
    this.pos += 2;
    const properties = this.parsePropertyAssignments();
    this.expectSymbol(')');
    return properties;
  }

  /** `name = value | DEFAULT, ...` */
  protected parsePropertyAssignments(): Property[] {
    return this.parseCommaList((): Property => {
      const name = this.parseIdentifier();
      this.expectSymbol('=');
      // `DEFAULT` leaves the property at its default: the Property has no value.
      if (this.acceptKeyword('DEFAULT')) return { kind: 'Property', name, location: name.location };
      return { kind: 'Property', name, value: this.parseExpression(), location: name.location };
    });
  }

  private parseControlStatement(): ControlStatement {
    const location = this.location();
    this.enter();
    return this.leave(this.parseControlStatementAt(location));
  }

  private parseControlStatementAt(location: SourceLocation): ControlStatement {
    if (this.acceptKeyword('RETURN')) return { kind: 'ReturnStatement', value: this.parseValueExpression(0), location };
    if (this.acceptKeyword('SET')) {
      const target = this.parseIdentifier();
      this.expectSymbol('=');
      return { kind: 'AssignmentStatement', target, value: this.parseExpression(), location };
    }
    if (this.acceptKeyword('CASE')) return this.parseCaseStatement(location);
    if (this.acceptKeyword('IF')) return this.parseIfStatement(location);
    if (this.acceptKeyword('ITERATE')) return { kind: 'IterateStatement', label: this.parseIdentifier(), location };
    if (this.acceptKeyword('LEAVE')) return { kind: 'LeaveStatement', label: this.parseIdentifier(), location };
    if (this.acceptKeyword('BEGIN')) return this.parseCompoundStatement(location);
    const label = this.isIdentifier() && this.isSymbol(':', this.peek()) ? this.parseIdentifier() : undefined;
    if (label) this.pos++;
    const labelled = label ? { label } : {};
    if (this.acceptKeyword('LOOP')) {
      const statements = this.parseStatementList();
      this.expectKeywords('END', 'LOOP');
      return { kind: 'LoopStatement', ...labelled, statements, location };
    }
    if (this.acceptKeyword('WHILE')) {
      const condition = this.parseExpression();
      this.expectKeyword('DO');
      const statements = this.parseStatementList();
      this.expectKeywords('END', 'WHILE');
      return { kind: 'WhileStatement', ...labelled, condition, statements, location };
    }
    this.expectKeyword('REPEAT');
    const statements = this.parseStatementList();
    this.expectKeyword('UNTIL');
    const condition = this.parseExpression();
    this.expectKeywords('END', 'REPEAT');
    return { kind: 'RepeatStatement', ...labelled, statements, condition, location };
  }

  /** After CASE: [operand] WHEN ... THEN statements ... [ELSE statements] END CASE */
  private parseCaseStatement(location: SourceLocation): ControlStatement {
    const operand = this.atKeyword('WHEN') ? undefined : this.parseExpression();
    const whenClauses: ConditionalStatements[] = [];
    do whenClauses.push(this.parseConditionalStatements('WHEN'));
    while (this.atKeyword('WHEN'));
    const elseStatements = this.acceptKeyword('ELSE') ? this.parseStatementList() : undefined;
    this.expectKeywords('END', 'CASE');
    return { kind: 'CaseStatement', ...(operand ? { operand } : {}), whenClauses, ...(elseStatements ? { elseStatements } : {}), location };
  }

  /** After IF: condition THEN statements [ELSEIF ...] [ELSE statements] END IF */
  private parseIfStatement(location: SourceLocation): ControlStatement {
    const condition = this.parseExpression();
    this.expectKeyword('THEN');
    const statements = this.parseStatementList();
    const elseIfClauses: ConditionalStatements[] = [];
    while (this.atKeyword('ELSEIF')) elseIfClauses.push(this.parseConditionalStatements('ELSEIF'));
    const elseStatements = this.acceptKeyword('ELSE') ? this.parseStatementList() : undefined;
    this.expectKeywords('END', 'IF');
    return { kind: 'IfStatement', condition, statements, elseIfClauses, ...(elseStatements ? { elseStatements } : {}), location };
  }

  /** `WHEN | ELSEIF condition THEN statements` */
  private parseConditionalStatements(word: 'WHEN' | 'ELSEIF'): ConditionalStatements {
    const location = this.location(this.expectKeyword(word));
    const condition = this.parseExpression();
    this.expectKeyword('THEN');
    return { kind: 'ConditionalStatements', condition, statements: this.parseStatementList(), location };
  }

  /** After BEGIN: DECLARE ...; ... then statements, through END. */
  private parseCompoundStatement(location: SourceLocation): ControlStatement {
    const variables: VariableDeclaration[] = [];
    while (this.atKeyword('DECLARE')) {
      variables.push(this.parseVariableDeclaration());
      this.expectSymbol(';');
    }
    const statements = this.atKeyword('END') ? [] : this.parseStatementList();
    this.expectKeyword('END');
    return { kind: 'CompoundStatement', variables, statements, location };
  }

  private parseVariableDeclaration(): VariableDeclaration {
    const location = this.location(this.advance());
    const names = this.parseCommaList(() => this.parseIdentifier());
    const type = this.parseType();
    const defaultValue: Expression | undefined = this.acceptKeyword('DEFAULT') ? this.parseValueExpression(0) : undefined;
    return { kind: 'VariableDeclaration', names, type, ...(defaultValue ? { defaultValue } : {}), location };
  }

  /** `statement; statement; ...` (at least one), up to END, ELSE, ELSEIF, WHEN or UNTIL. */
  private parseStatementList(): ControlStatement[] {
    const statements: ControlStatement[] = [];
    do {
      statements.push(this.parseControlStatement());
      this.expectSymbol(';');
    } while (!LIST_ENDS.some((w) => this.isKeyword(w)));
    return statements;
  }
}
