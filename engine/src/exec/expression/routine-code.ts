// Code for SQL routines: a routine compiles (once per structure, cached) into a JS function over
// scalars (null for SQL NULL), the way lambdas do, with its variables as `let`s, its loops as
// labelled `while (true)` loops (LEAVE is `break`, ITERATE `continue`) and its expressions generated
// by the expression code generator; a call binds that function into the calling expression's code.
//
// A loop counts its rounds: every ROUNDS_PER_CHECK rounds it checks whether its query was cancelled
// (in a worker thread, routine-interrupts.ts) and reads the clock; an invocation running longer than
// the routine's time limit (the query's query_max_execution_time) fails with EXCEEDED_TIME_LIMIT, so
// a routine that never leaves its loop ends with its query instead of holding the thread.

import { EngineError } from '../../errors/engine-error.js';
import { formatDuration } from '../../config/duration.js';
import type { Scalar } from '../../types/scalar.js';
import type { RoutineCall } from '../../sql/planner/row-expression.js';
import { routineKey, type Routine, type RoutineStatement } from '../../sql/routines/routine.js';
import { CodeGenerator, orNull, type Emitted } from './code-generator.js';
import { defaultLiteral } from './js-values.js';
import { RUNTIME_PROLOGUE, RUNTIME_VALUES } from './runtime-values.js';
import { throwIfRoutineCancelled } from './routine-interrupts.js';

type RoutineFunction = (...args: Scalar[]) => Scalar;

const ROUNDS_PER_CHECK = 1024;
const MAX_CACHED = 1024;
const compiled = new Map<string, RoutineFunction>();

/** The code of a routine call: NULL without running the body when RETURNS NULL ON NULL INPUT meets a NULL argument. */
export function generateRoutineCall(g: CodeGenerator, e: RoutineCall): Emitted {
  const args: Emitted[] = e.args.map((a) => g.generate(a));
  const fn = g.bind(routineFunction(e.routine));
  const anyNull = e.routine.calledOnNullInput ? 'false' : orNull(args.map((a) => a.isNull));
  if (anyNull === 'true') return { value: defaultLiteral(e.type), isNull: 'true' };
  const result = g.declare(e.type);
  g.emit(`if (!${anyNull}) {`);
  g.emit(`${result.value} = ${fn}(${args.map(nullable).join(', ')});`);
  g.emit(`if (${result.value} === null) ${result.value} = ${defaultLiteral(e.type)}; else ${result.isNull} = false;`);
  g.emit('}');
  return result;
}

export function routineFunction(routine: Routine): RoutineFunction {
  const key = routineKey(routine);
  let fn = compiled.get(key);
  if (fn === undefined) {
    fn = compileRoutine(routine);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, fn);
  }
  return fn;
}

function nullable(a: Emitted): string {
  return a.isNull === 'false' ? a.value : a.isNull === 'true' ? 'null' : `(${a.isNull} ? null : ${a.value})`;
}

function compileRoutine(routine: Routine): RoutineFunction {
  const g = new CodeGenerator([], new Set());
  const variables = new Map<string, Emitted>();
  const args = routine.parameters.map((_, i) => `a${i}`);
  const cancelled = g.bind(throwIfRoutineCancelled);
  const timeLimit = g.bind(() => {
    throw new EngineError(
      'EXCEEDED_TIME_LIMIT',
      `Query exceeded the maximum execution time limit of ${formatDuration(routine.timeLimitMillis)} in function ${routine.name}`,
    );
  });
  const { lines } = g.generateNested(variables, () => {
    routine.parameters.forEach((p, i) => {
      variables.set(
        p.id,
        g.declare(p.type, { value: `(${args[i]} === null ? ${defaultLiteral(p.type)} : ${args[i]})`, isNull: `${args[i]} === null` }),
      );
    });
    new StatementWriter(g, variables, { cancelled, timeLimit, timeLimitMillis: routine.timeLimitMillis }).statements(routine.body);
    return { value: 'null', isNull: 'true' };
  });
  const text = `${g.prologueSource()}\n${RUNTIME_PROLOGUE}\nreturn function routine(${args.join(', ')}) {\nlet rounds = 0, started = 0;\n${lines.join('\n')}\nreturn null;\n};`;
  const factory = new Function('B', 'EngineError', text) as (b: unknown, error: typeof EngineError) => RoutineFunction;
  return factory(Object.assign(g.boundValues(), RUNTIME_VALUES), EngineError);
}

/** Emits a routine's statements into the generator's current lines. */
class StatementWriter {
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly g: CodeGenerator,
    private readonly variables: Map<string, Emitted>,
    /** The bound checks a loop makes with its clock: the query's cancellation, then the time limit. */
    private readonly guard: { cancelled: string; timeLimit: string; timeLimitMillis: number },
  ) {}

  statements(list: readonly RoutineStatement[]): void {
    for (const s of list) this.statement(s);
  }

  private block(list: readonly RoutineStatement[]): void {
    this.g.emit('{');
    this.statements(list);
    this.g.emit('}');
  }

  private statement(s: RoutineStatement): void {
    const g = this.g;
    switch (s.kind) {
      case 'declare': {
        const initial = s.value === undefined ? undefined : g.generate(s.value);
        this.variables.set(s.variable.id, g.declare(s.variable.type, initial));
        return;
      }
      case 'block':
        return this.block(s.statements);
      case 'return':
        g.emit(`return ${nullable(g.generate(s.value))};`);
        return;
      case 'set': {
        const target = this.variables.get(s.variable);
        if (target === undefined) throw new Error(`routine variable ${s.variable} set before its declaration`);
        const value = g.generate(s.value);
        g.emit(`${target.value} = ${value.value}; ${target.isNull} = ${value.isNull};`);
        return;
      }
      case 'if':
        g.emit(`if (${isTrue(g.generate(s.condition))}) {`);
        this.statements(s.then);
        g.emit('} else {');
        this.statements(s.otherwise);
        g.emit('}');
        return;
      case 'loop': {
        const label = g.fresh('L');
        this.labels.set(s.label, label);
        g.emit(`${label}: while (true) {`);
        // The clock is read once per ROUNDS_PER_CHECK rounds of the invocation's loops; its time counts from the first reading.
        const { cancelled, timeLimit, timeLimitMillis } = this.guard;
        g.emit(
          `if (++rounds === ${ROUNDS_PER_CHECK}) { rounds = 0; ${cancelled}(); const now = Date.now(); if (started === 0) started = now; else if (now - started > ${timeLimitMillis}) ${timeLimit}(); }`,
        );
        if (s.while !== undefined) g.emit(`if (!(${isTrue(g.generate(s.while))})) break ${label};`);
        this.block(s.body);
        if (s.until !== undefined) g.emit(`if (${isTrue(g.generate(s.until))}) break ${label};`);
        g.emit('}');
        return;
      }
      case 'leave':
      case 'iterate':
        g.emit(`${s.kind === 'leave' ? 'break' : 'continue'} ${this.label(s.label)};`);
        return;
    }
  }

  private label(name: string): string {
    const label = this.labels.get(name);
    if (label === undefined) throw new Error(`routine label ${name} outside its loop`);
    return label;
  }
}

function isTrue(c: Emitted): string {
  return c.isNull === 'false' ? c.value : c.isNull === 'true' ? 'false' : `!${c.isNull} && ${c.value}`;
}
