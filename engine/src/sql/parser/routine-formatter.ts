// SQL text of SQL routines: function specifications (CREATE FUNCTION, WITH FUNCTION) and the
// control statements of their bodies.

import type { ControlStatement, FunctionDeclaration, FunctionSpecification, Identifier, RoutineCharacteristic } from './ast.js';
import { formatIdentifier, formatQualifiedName, formatStringLiteral, formatType } from './expression-formatter.js';
import { expressions, formatExpression, formatProperties } from './formatter.js';

export function formatFunctionSpecification(spec: FunctionSpecification): string {
  const characteristics = spec.characteristics.map((c) => ` ${characteristic(c)}`).join('');
  const body = spec.body.kind === 'FunctionDefinition' ? `AS $$${spec.body.text}$$` : formatControlStatement(spec.body);
  return `FUNCTION ${formatFunctionDeclaration(spec.declaration)} RETURNS ${formatType(spec.returnType)}${characteristics} ${body}`;
}

export function formatFunctionDeclaration(declaration: FunctionDeclaration): string {
  const parameters = declaration.parameters.map((p) => (p.name ? `${formatIdentifier(p.name)} ${formatType(p.type)}` : formatType(p.type)));
  return `${formatQualifiedName(declaration.name)}(${parameters.join(', ')})`;
}

function characteristic(c: RoutineCharacteristic): string {
  switch (c.kind) {
    case 'Language':
      return `LANGUAGE ${formatIdentifier(c.language)}`;
    case 'Deterministic':
      return c.deterministic ? 'DETERMINISTIC' : 'NOT DETERMINISTIC';
    case 'NullInput':
      return c.calledOnNullInput ? 'CALLED ON NULL INPUT' : 'RETURNS NULL ON NULL INPUT';
    case 'Security':
      return `SECURITY ${c.security}`;
    case 'RoutineComment':
      return `COMMENT ${formatStringLiteral(c.comment)}`;
    case 'RoutineProperties':
      return formatProperties(c.properties).trimStart();
  }
}

function statements(list: ControlStatement[]): string {
  return list.map((s) => `${formatControlStatement(s)};`).join(' ');
}

function labelled(s: { label?: Identifier }): string {
  return s.label ? `${formatIdentifier(s.label)}: ` : '';
}

export function formatControlStatement(s: ControlStatement): string {
  switch (s.kind) {
    case 'ReturnStatement':
      return `RETURN ${expressions.value(s.value)}`;
    case 'AssignmentStatement':
      return `SET ${formatIdentifier(s.target)} = ${formatExpression(s.value)}`;
    case 'CaseStatement': {
      const operand = s.operand ? ` ${formatExpression(s.operand)}` : '';
      const whens = s.whenClauses.map((w) => ` WHEN ${formatExpression(w.condition)} THEN ${statements(w.statements)}`).join('');
      return `CASE${operand}${whens}${s.elseStatements ? ` ELSE ${statements(s.elseStatements)}` : ''} END CASE`;
    }
    case 'IfStatement': {
      const elseIfs = s.elseIfClauses.map((c) => ` ELSEIF ${formatExpression(c.condition)} THEN ${statements(c.statements)}`).join('');
      return `IF ${formatExpression(s.condition)} THEN ${statements(s.statements)}${elseIfs}${s.elseStatements ? ` ELSE ${statements(s.elseStatements)}` : ''} END IF`;
    }
    case 'IterateStatement':
      return `ITERATE ${formatIdentifier(s.label)}`;
    case 'LeaveStatement':
      return `LEAVE ${formatIdentifier(s.label)}`;
    case 'CompoundStatement': {
      const declarations = s.variables.map((v) => {
        const defaultValue = v.defaultValue ? ` DEFAULT ${expressions.value(v.defaultValue)}` : '';
        return `DECLARE ${v.names.map(formatIdentifier).join(', ')} ${formatType(v.type)}${defaultValue}; `;
      });
      return `BEGIN ${declarations.join('')}${statements(s.statements)} END`;
    }
    case 'LoopStatement':
      return `${labelled(s)}LOOP ${statements(s.statements)} END LOOP`;
    case 'WhileStatement':
      return `${labelled(s)}WHILE ${formatExpression(s.condition)} DO ${statements(s.statements)} END WHILE`;
    case 'RepeatStatement':
      return `${labelled(s)}REPEAT ${statements(s.statements)} UNTIL ${formatExpression(s.condition)} END REPEAT`;
  }
}
