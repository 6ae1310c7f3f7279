// The SQL/JSON forms of Trino's grammar: JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT,
// JSON_ARRAY (expressions) and JSON_TABLE (a relation), with their path invocations, PASSING
// arguments, RETURNING types, wrappers, quotes and ON EMPTY / ON ERROR behaviours.

import type {
  Expression,
  JsonArgument,
  JsonExpression,
  JsonFormat,
  JsonPathInvocation,
  JsonQueryBehavior,
  JsonQuotes,
  JsonTable,
  JsonTableColumn,
  JsonTablePlan,
  JsonValueBehavior,
  JsonValueExpression,
  JsonWrapper,
  TypeSpec,
} from './ast.js';
import { TypeParser } from './type-parser.js';

export abstract class JsonParser extends TypeParser {
  protected abstract parseExpression(initial?: Expression): Expression;

  /** The JSON form starting at the current (reserved) word, which must be followed by `(`. */
  protected parseJsonExpression(keyword: string): JsonExpression | undefined {
    if (!this.isSymbol('(', this.peek())) return undefined;
    const location = this.location(this.advance());
    this.pos++;
    let result: JsonExpression;
    switch (keyword) {
      case 'JSON_EXISTS': {
        const invocation = this.parseJsonPathInvocation();
        const behavior = (['TRUE', 'FALSE', 'UNKNOWN', 'ERROR'] as const).find((w) => this.atKeyword(w));
        result = { kind: 'JsonExists', invocation, location };
        if (behavior) {
          this.pos++;
          this.expectKeywords('ON', 'ERROR');
          result.onError = behavior;
        }
        break;
      }
      case 'JSON_VALUE': {
        result = { kind: 'JsonValue', invocation: this.parseJsonPathInvocation(), location };
        if (this.acceptKeyword('RETURNING')) result.returning = this.parseType();
        Object.assign(
          result,
          this.parseEmptyAndErrorBehaviors(() => this.parseJsonValueBehavior()),
        );
        break;
      }
      case 'JSON_QUERY': {
        result = { kind: 'JsonQuery', invocation: this.parseJsonPathInvocation(), location };
        Object.assign(result, this.parseReturning(), this.parseJsonQueryOptions());
        break;
      }
      case 'JSON_OBJECT':
        result = { kind: 'JsonObject', members: [], location };
        if (!this.atKeyword('RETURNING') && !this.atSymbol(')')) {
          result.members = this.parseCommaList(() => this.parseJsonObjectMember());
          this.parseNullOnNull(result);
          if (this.atKeyword('WITH') || this.atKeyword('WITHOUT')) {
            result.uniqueKeys = this.advance().keyword === 'WITH';
            this.expectKeyword('UNIQUE');
            this.acceptKeyword('KEYS');
          }
        }
        Object.assign(result, this.parseReturning());
        break;
      case 'JSON_ARRAY':
        result = { kind: 'JsonArray', elements: [], location };
        if (!this.atKeyword('RETURNING') && !this.atSymbol(')')) {
          result.elements = this.parseCommaList(() => this.parseJsonValueExpression());
          this.parseNullOnNull(result);
        }
        Object.assign(result, this.parseReturning());
        break;
      default:
        return undefined;
    }
    this.expectSymbol(')');
    return result;
  }

  /** JSON_TABLE(invocation COLUMNS (...) [PLAN (...) | PLAN DEFAULT (...)] [ERROR | EMPTY ON ERROR]) */
  protected parseJsonTable(): JsonTable {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const table: JsonTable = {
      kind: 'JsonTable',
      invocation: this.parseJsonPathInvocation(),
      columns: this.parseJsonTableColumns(),
      location,
    };
    if (this.acceptKeyword('PLAN')) {
      if (this.acceptKeyword('DEFAULT')) {
        const planLocation = this.location();
        this.expectSymbol('(');
        table.plan = { kind: 'JsonTableDefaultPlan', location: planLocation };
        const first = this.parseDefaultPlanPart();
        const second = this.acceptSymbol(',') ? this.parseDefaultPlanPart() : undefined;
        for (const part of [first, second]) {
          if (part === 'OUTER' || part === 'INNER') table.plan.parentChild = part;
          else if (part) table.plan.siblings = part;
        }
        if (second && (first === 'OUTER' || first === 'INNER') === (second === 'OUTER' || second === 'INNER')) this.fail();
      } else {
        this.expectSymbol('(');
        table.plan = this.parseJsonTableSpecificPlan();
      }
      this.expectSymbol(')');
    }
    if (this.atKeyword('ERROR') || this.atKeyword('EMPTY')) {
      table.onError = this.advance().keyword as 'ERROR' | 'EMPTY';
      this.expectKeywords('ON', 'ERROR');
    }
    this.expectSymbol(')');
    return table;
  }

  /** `input, 'path' [AS name] [PASSING value AS name, ...]` */
  private parseJsonPathInvocation(): JsonPathInvocation {
    const location = this.location();
    const input = this.parseJsonValueExpression();
    this.expectSymbol(',');
    const pathLocation = this.location();
    const invocation: JsonPathInvocation = {
      kind: 'JsonPathInvocation',
      input,
      path: this.parseStringValue(),
      pathLocation,
      passing: [],
      location,
    };
    if (this.acceptKeyword('AS')) invocation.pathName = this.parseIdentifier();
    if (this.acceptKeyword('PASSING')) {
      invocation.passing = this.parseCommaList((): JsonArgument => {
        const argumentLocation = this.location();
        const value = this.parseJsonValueExpression();
        this.expectKeyword('AS');
        return { kind: 'JsonArgument', value, name: this.parseIdentifier(), location: argumentLocation };
      });
    }
    return invocation;
  }

  private parseJsonValueExpression(): JsonValueExpression {
    const location = this.location();
    const value = this.parseExpression();
    const format = this.acceptKeyword('FORMAT') ? this.parseJsonFormat() : undefined;
    return format ? { kind: 'JsonValueExpression', value, format, location } : { kind: 'JsonValueExpression', value, location };
  }

  /** JSON [ENCODING UTF8 | UTF16 | UTF32], after FORMAT. */
  private parseJsonFormat(): JsonFormat {
    this.expectKeyword('JSON');
    if (!this.acceptKeyword('ENCODING')) return 'JSON';
    const encoding = (['UTF8', 'UTF16', 'UTF32'] as const).find((w) => this.atKeyword(w));
    if (!encoding) this.fail();
    this.pos++;
    return `JSON ENCODING ${encoding}`;
  }

  private parseReturning(): { returning?: TypeSpec; returningFormat?: JsonFormat } {
    if (!this.acceptKeyword('RETURNING')) return {};
    const returning = this.parseType();
    return this.acceptKeyword('FORMAT') ? { returning, returningFormat: this.parseJsonFormat() } : { returning };
  }

  /** `[behavior ON EMPTY] [behavior ON ERROR]` */
  private parseEmptyAndErrorBehaviors<T>(parseBehavior: () => T | undefined): { onEmpty?: T; onError?: T } {
    const result: { onEmpty?: T; onError?: T } = {};
    let behavior = parseBehavior();
    if (behavior === undefined) return result;
    this.expectKeyword('ON');
    if (this.acceptKeyword('EMPTY')) {
      result.onEmpty = behavior;
      behavior = parseBehavior();
      if (behavior === undefined) return result;
      this.expectKeyword('ON');
    }
    this.expectKeyword('ERROR');
    result.onError = behavior;
    return result;
  }

  private parseJsonValueBehavior(): JsonValueBehavior | undefined {
    if (this.acceptKeyword('ERROR')) return { type: 'ERROR' };
    if (this.acceptKeyword('NULL')) return { type: 'NULL' };
    if (this.acceptKeyword('DEFAULT')) return { type: 'DEFAULT', value: this.parseExpression() };
    return undefined;
  }

  private parseJsonQueryBehavior(): JsonQueryBehavior | undefined {
    if (this.acceptKeyword('ERROR')) return 'ERROR';
    if (this.acceptKeyword('NULL')) return 'NULL';
    if (!this.acceptKeyword('EMPTY')) return undefined;
    if (this.acceptKeyword('ARRAY')) return 'EMPTY ARRAY';
    this.expectKeyword('OBJECT');
    return 'EMPTY OBJECT';
  }

  /** [wrapper WRAPPER] [KEEP | OMIT QUOTES [ON SCALAR STRING]] [behavior ON EMPTY] [behavior ON ERROR] */
  private parseJsonQueryOptions(): {
    wrapper?: JsonWrapper;
    quotes?: JsonQuotes;
    onEmpty?: JsonQueryBehavior;
    onError?: JsonQueryBehavior;
  } {
    const options: { wrapper?: JsonWrapper; quotes?: JsonQuotes } = {};
    if (this.acceptKeyword('WITHOUT')) {
      this.acceptKeyword('ARRAY');
      this.expectKeyword('WRAPPER');
      options.wrapper = 'WITHOUT';
    } else if (this.acceptKeyword('WITH')) {
      options.wrapper = this.acceptKeyword('CONDITIONAL') ? 'CONDITIONAL' : 'UNCONDITIONAL';
      if (options.wrapper === 'UNCONDITIONAL') this.acceptKeyword('UNCONDITIONAL');
      this.acceptKeyword('ARRAY');
      this.expectKeyword('WRAPPER');
    }
    if (this.atKeyword('KEEP') || this.atKeyword('OMIT')) {
      const keep = this.advance().keyword === 'KEEP';
      this.expectKeyword('QUOTES');
      const onScalarString = this.acceptKeyword('ON');
      if (onScalarString) this.expectKeywords('SCALAR', 'STRING');
      options.quotes = { keep, onScalarString };
    }
    return { ...options, ...this.parseEmptyAndErrorBehaviors(() => this.parseJsonQueryBehavior()) };
  }

  private parseJsonObjectMember() {
    const location = this.location();
    // KEY is a keyword only when an expression follows it (a column may be named `key`).
    const keyWord = this.isKeyword('KEY') && !this.isKeyword('VALUE', this.peek()) && !this.isSymbol(':', this.peek());
    if (keyWord) this.pos++;
    const key = this.parseExpression();
    if (keyWord || !this.acceptSymbol(':')) this.expectKeyword('VALUE');
    return { kind: 'JsonObjectMember' as const, key, value: this.parseJsonValueExpression(), location };
  }

  /** NULL ON NULL | ABSENT ON NULL */
  private parseNullOnNull(target: { nullOnNull?: boolean }): void {
    if (!this.atKeyword('NULL') && !this.atKeyword('ABSENT')) return;
    target.nullOnNull = this.advance().keyword === 'NULL';
    this.expectKeywords('ON', 'NULL');
  }

  private parseJsonTableColumns(): JsonTableColumn[] {
    this.expectKeyword('COLUMNS');
    this.expectSymbol('(');
    const columns = [this.parseJsonTableColumn()];
    while (this.acceptSymbol(',')) columns.push(this.parseJsonTableColumn());
    this.expectSymbol(')');
    return columns;
  }

  private parseJsonTableColumn(): JsonTableColumn {
    const location = this.location();
    if (this.isKeyword('NESTED') && (this.isKeyword('PATH', this.peek()) || this.peek().kind === 'string')) {
      this.pos++;
      this.acceptKeyword('PATH');
      const path = this.parseStringValue();
      const pathName = this.acceptKeyword('AS') ? this.parseIdentifier() : undefined;
      return { kind: 'JsonNestedColumns', path, ...(pathName ? { pathName } : {}), columns: this.parseJsonTableColumns(), location };
    }
    const name = this.parseIdentifier();
    if (this.acceptKeyword('FOR')) {
      this.expectKeyword('ORDINALITY');
      return { kind: 'JsonOrdinalityColumn', name, location };
    }
    const type = this.parseType();
    if (this.acceptKeyword('FORMAT')) {
      const format = this.parseJsonFormat();
      const path = this.acceptKeyword('PATH') ? this.parseStringValue() : undefined;
      return {
        kind: 'JsonQueryColumn',
        name,
        type,
        format,
        ...(path !== undefined ? { path } : {}),
        ...this.parseJsonQueryOptions(),
        location,
      };
    }
    const path = this.acceptKeyword('PATH') ? this.parseStringValue() : undefined;
    const behaviors = this.parseEmptyAndErrorBehaviors(() => this.parseJsonValueBehavior());
    return { kind: 'JsonValueColumn', name, type, ...(path !== undefined ? { path } : {}), ...behaviors, location };
  }

  /** A path name, `parent OUTER | INNER child`, or siblings joined by UNION or by CROSS. */
  private parseJsonTableSpecificPlan(): JsonTablePlan {
    const location = this.location();
    const first = this.parseJsonTablePlanPrimary();
    if (first.kind === 'JsonTablePlanLeaf' && (this.atKeyword('OUTER') || this.atKeyword('INNER'))) {
      const type = this.advance().keyword as 'OUTER' | 'INNER';
      return { kind: 'JsonTablePlanJoin', parent: first.name, type, child: this.parseJsonTablePlanPrimary(), location };
    }
    const type = (['UNION', 'CROSS'] as const).find((w) => this.atKeyword(w));
    if (!type) return first;
    const plans = [first];
    while (this.acceptKeyword(type)) plans.push(this.parseJsonTablePlanPrimary());
    return { kind: 'JsonTablePlanSiblings', type, plans, location };
  }

  private parseJsonTablePlanPrimary(): JsonTablePlan {
    const location = this.location();
    if (!this.acceptSymbol('(')) return { kind: 'JsonTablePlanLeaf', name: this.parseIdentifier(), location };
    const plan = this.parseJsonTableSpecificPlan();
    this.expectSymbol(')');
    return plan;
  }

  private parseDefaultPlanPart(): 'OUTER' | 'INNER' | 'UNION' | 'CROSS' {
    const part = (['OUTER', 'INNER', 'UNION', 'CROSS'] as const).find((w) => this.atKeyword(w));
    if (!part) this.fail();
    this.pos++;
    return part;
  }
}
