// Generates the JavaScript of one row of an expression. Each node becomes statements that leave its
// value and NULL flag in two local variables; NULL flags known at compile time are the literals
// 'true' / 'false', so non-nullable inputs produce code without NULL checks. Conditional forms
// (CASE, IF, AND, OR, COALESCE, TRY) emit their operands inside branches, so rows that do not take
// a branch never evaluate it (and never raise its errors).

import { castMayReturnNull } from '../../types/json/json-casts.js';
import { scalarImplementation } from '../../functions/scalar/registry.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { IDENTITY_CAST, castFunction, storeAssignmentCast } from '../../types/casts.js';
import { type SqlType, typesEqual } from '../../types/types.js';
import { defaultLiteral, readExpression, scalarLiteral } from './js-values.js';
import { generateSpecialForm } from './special-forms.js';
import { generateLambda } from './lambdas.js';
import { generateRoutineCall } from './routine-code.js';

/** A generated node: JS expressions (usually variable names) for its value and its NULL flag. */
export interface Emitted {
  readonly value: string;
  readonly isNull: string;
}

export class CodeGenerator {
  private lines: string[] = [];
  /** The parameters of the lambdas being generated, innermost last. */
  private readonly lambdaScopes: Array<ReadonlyMap<string, Emitted>> = [];
  private readonly bindings: unknown[] = [];
  private readonly prologue: string[] = [];
  private readonly channelsRead = new Set<number>();
  private counter = 0;

  constructor(
    private readonly inputTypes: readonly SqlType[],
    /** Channels whose column has a null mask in the pages this code runs on. */
    private readonly nullableChannels: ReadonlySet<number>,
    /** The loop's row variable. */
    readonly row = 'i',
  ) {}

  emit(line: string): void {
    this.lines.push(line);
  }

  /** A fresh identifier with the given prefix. */
  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** Makes a JS value available to the generated code under a constant name. */
  bind(value: unknown): string {
    const name = `$${this.bindings.length}`;
    this.prologue.push(`const ${name} = B[${this.bindings.length}];`);
    this.bindings.push(value);
    return name;
  }

  /** Declares the variables of a node's result, initialised to NULL (or to the given value). */
  declare(type: SqlType, initial?: Emitted): Emitted {
    const value = this.fresh('v');
    const isNull = this.fresh('n');
    this.emit(`let ${value} = ${initial?.value ?? defaultLiteral(type)}, ${isNull} = ${initial?.isNull ?? 'true'};`);
    return { value, isNull };
  }

  body(): string {
    return this.lines.join('\n');
  }
  prologueSource(): string {
    return this.prologue.join('\n');
  }
  boundValues(): unknown[] {
    return this.bindings;
  }
  channels(): ReadonlySet<number> {
    return this.channelsRead;
  }

  generate(e: RowExpression): Emitted {
    switch (e.kind) {
      case 'input':
        return this.generateInput(e.channel, e.type);
      case 'constant': {
        if (e.value === null || e.type.kind === 'unknown') return { value: defaultLiteral(e.type), isNull: 'true' };
        const literal = e.type.kind === 'boolean' ? String(e.value === true || e.value === 1) : scalarLiteral(e.value);
        return { value: literal ?? this.bind(e.value), isNull: 'false' };
      }
      case 'call':
        return this.generateCall(e.name, e.args, e.type);
      case 'cast':
        return this.generateCast(this.generate(e.arg), e.arg.type, e.type, e.safe, e.assignment === true, e.sessionZone);
      case 'special':
        return generateSpecialForm(this, e);
      case 'lambda':
        return generateLambda(this, e);
      case 'variable':
        return this.lambdaVariable(e.name);
      case 'routine':
        return generateRoutineCall(this, e);
      case 'symbol':
        throw new Error(`symbol reference '${e.symbol.name}' in a compiled expression: the planner must map symbols to input channels`);
    }
  }

  /**
   * Generates into lines of its own (a lambda's function body), with the lambda's parameters in
   * scope; returns those lines and what `generate` returned.
   */
  generateNested(parameters: ReadonlyMap<string, Emitted>, generate: () => Emitted): { lines: string[]; result: Emitted } {
    const outer = this.lines;
    this.lines = [];
    this.lambdaScopes.push(parameters);
    try {
      const result = generate();
      return { lines: this.lines, result };
    } finally {
      this.lambdaScopes.pop();
      this.lines = outer;
    }
  }

  private lambdaVariable(name: string): Emitted {
    for (let i = this.lambdaScopes.length - 1; i >= 0; i--) {
      const found = this.lambdaScopes[i].get(name);
      if (found !== undefined) return found;
    }
    throw new Error(`lambda variable '${name}' outside its lambda`);
  }

  private generateInput(channel: number, type: SqlType): Emitted {
    const inputType = this.inputTypes[channel];
    if (inputType === undefined) throw new Error(`input channel ${channel} out of range (${this.inputTypes.length} inputs)`);
    if (type.kind === 'unknown' || inputType.kind === 'unknown') return { value: defaultLiteral(type), isNull: 'true' };
    this.channelsRead.add(channel);
    const value = this.fresh('v');
    this.emit(`const ${value} = ${readExpression(type, `c${channel}`, this.row)};`);
    if (!this.nullableChannels.has(channel)) return { value, isNull: 'false' };
    const isNull = this.fresh('n');
    this.emit(`const ${isNull} = cn${channel}[${this.row}] === 1;`);
    return { value, isNull };
  }

  /** A call of a registry function on already generated arguments. */
  callOn(name: string, argTypes: readonly SqlType[], returnType: SqlType, args: readonly Emitted[]): Emitted {
    const impl = scalarImplementation(name, argTypes, returnType);
    if (impl.acceptsNulls) {
      const fn = this.bind(impl.invoke);
      const actual = args.map((a) => (a.isNull === 'false' ? a.value : a.isNull === 'true' ? 'null' : `(${a.isNull} ? null : ${a.value})`));
      const result = this.declare(returnType);
      this.emit(`${result.value} = ${fn}(${actual.join(', ')});`);
      this.emit(`${result.isNull} = ${result.value} === null;`);
      return result;
    }
    const anyNull = orNull(args.map((a) => a.isNull));
    if (anyNull === 'true') return { value: defaultLiteral(returnType), isNull: 'true' };
    const call =
      impl.inline !== undefined
        ? impl.inline(args.map((a) => a.value))
        : `${this.bind(impl.invoke)}(${args.map((a) => a.value).join(', ')})`;
    if (anyNull === 'false' && !impl.mayReturnNull) {
      const value = this.fresh('v');
      this.emit(`const ${value} = ${call};`);
      return { value, isNull: 'false' };
    }
    const result = this.declare(returnType, { value: defaultLiteral(returnType), isNull: anyNull });
    this.emit(`if (!${result.isNull}) {`);
    this.emit(`${result.value} = ${call};`);
    if (impl.mayReturnNull)
      this.emit(`if (${result.value} === null) { ${result.isNull} = true; ${result.value} = ${defaultLiteral(returnType)}; }`);
    this.emit('}');
    return result;
  }

  private generateCall(name: string, args: readonly RowExpression[], type: SqlType): Emitted {
    // A loop, not Array.map: nested calls recurse through this frame, one frame less per level.
    const emitted: Emitted[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) emitted[i] = this.generate(args[i]);
    return this.callOn(
      name,
      args.map((a) => a.type),
      type,
      emitted,
    );
  }

  /** CAST of a generated value; TRY_CAST (safe) yields NULL where the cast fails; INSERT's store assignment. */
  generateCast(arg: Emitted, from: SqlType, to: SqlType, safe: boolean, assignment = false, sessionZone?: string): Emitted {
    if (arg.isNull === 'true' || from.kind === 'unknown') return { value: defaultLiteral(to), isNull: 'true' };
    const fn = assignment ? storeAssignmentCast(from, to, sessionZone) : castFunction(from, to, sessionZone);
    if (fn === IDENTITY_CAST) return arg;
    const cast = this.bind(fn);
    const nullable = castMayReturnNull(from, to);
    if (!safe && arg.isNull === 'false' && !nullable) {
      const value = this.fresh('v');
      this.emit(`const ${value} = ${cast}(${arg.value});`);
      return { value, isNull: 'false' };
    }
    const result = this.declare(to, { value: defaultLiteral(to), isNull: arg.isNull });
    this.emit(`if (!${result.isNull}) {`);
    if (safe) {
      this.emit(
        `try { ${result.value} = ${cast}(${arg.value}); } catch (e) { if (!(e instanceof EngineError)) throw e; ${result.isNull} = true; }`,
      );
    } else {
      this.emit(`${result.value} = ${cast}(${arg.value});`);
    }
    if (nullable) this.emit(`if (${result.value} === null) { ${result.isNull} = true; ${result.value} = ${defaultLiteral(to)}; }`);
    this.emit('}');
    return result;
  }

  /** The value converted to `to` when its type differs (for forms that compare mixed operands). */
  coerce(arg: Emitted, from: SqlType, to: SqlType): Emitted {
    return typesEqual(from, to) ? arg : this.generateCast(arg, from, to, false);
  }
}

/** The JS expression "any of these is NULL", folded when the flags are literals. */
export function orNull(flags: readonly string[]): string {
  const open = flags.filter((f) => f !== 'false');
  if (open.includes('true')) return 'true';
  if (open.length === 0) return 'false';
  return open.length === 1 ? open[0] : `(${open.join(' || ')})`;
}
