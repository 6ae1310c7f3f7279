// Aggregate calls with lambda arguments: reduce_agg(value, initialState, inputFunction,
// combineFunction). The state type S is the initial state's, widened (as Trino's binder unifies
// it) to what the input function returns; the lambdas travel in the function handle, the value
// and the initial state as argument columns. As lambdas of an aggregation they may not refer to
// the row's columns (they run where the rows are folded, apart from any row).

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { commonSuperType } from '../../types/coercion.js';
import { MAX_DECIMAL_PRECISION, VARCHAR, decimal, functionType, typeName, typesEqual, type SqlType } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { resolveAggregateHandle, type AggregateFunctionHandle } from '../planner/function-handles.js';
import { referencedSymbols, type LambdaExpression, type RowExpression } from '../planner/row-expression.js';
import { functionName } from './ast-utils.js';
import type { TranslationContext } from './expression-translator.js';
import { lambdaArgument } from './lambda-translator.js';

export interface LambdaAggregateCall {
  /** The argument columns (value, initial state) and where they are written. */
  args: RowExpression[];
  locations: SourceLocation[];
  handle: AggregateFunctionHandle;
}

/**
 * The state type: the initial state's, widened to what the input function returns on it until they
 * agree. A length or precision that grows with every step (a || b, a + b on decimals) becomes
 * unbounded varchar or decimal(38, s).
 */
function unifiedStateType(initial: SqlType, returns: (state: SqlType) => SqlType, location: SourceLocation): SqlType {
  let state = initial;
  for (let step = 0; step < 3; step++) {
    const returned = returns(state);
    if (typesEqual(returned, state)) return state;
    const wider = commonSuperType(state, returned);
    if (wider === undefined) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `reduce_agg's input function returns ${typeName(returned)}, which does not fit the state type ${typeName(state)}`,
        location,
      );
    }
    state = wider;
  }
  if (state.kind === 'varchar') return VARCHAR;
  if (state.kind === 'decimal') return decimal(MAX_DECIMAL_PRECISION, state.scale);
  return state;
}

export function lambdaAggregateCall(
  call: ast.FunctionCall,
  translate: (e: ast.Expression) => RowExpression,
  context: TranslationContext,
): LambdaAggregateCall {
  const name = functionName(call);
  const [value, initial, input, combine] = call.args;
  if (
    name !== 'reduce_agg' ||
    call.args.length !== 4 ||
    value.kind === 'Lambda' ||
    initial.kind === 'Lambda' ||
    input.kind !== 'Lambda' ||
    combine.kind !== 'Lambda'
  ) {
    throw new EngineError(
      'FUNCTION_NOT_FOUND',
      `Unexpected parameters for function ${name}: of the aggregate functions only reduce_agg(T, S, function(S,T,S), function(S,S,S)) takes lambdas`,
      call.location,
    );
  }
  const args = [translate(value), translate(initial)];
  const inputType = args[0].type;
  const inputFunction = lambdaArgument(input, context);
  const stateType = unifiedStateType(args[1].type, (state) => inputFunction.bodyType([state, inputType]) ?? state, input.location);
  const lambdas: LambdaExpression[] = [
    inputFunction.expression(functionType([stateType, inputType], stateType)),
    lambdaArgument(combine, context).expression(functionType([stateType, stateType], stateType)),
  ];
  lambdas.forEach((lambda, i) => {
    if (referencedSymbols(lambda.body).size > 0) {
      throw new EngineError(
        'NOT_SUPPORTED',
        'Lambda expressions of aggregate functions cannot refer to columns',
        call.args[i + 2].location,
      );
    }
  });
  const handle = resolveAggregateHandle(name, [inputType, stateType], call.location, [], lambdas);
  return { args, locations: [value.location, initial.location], handle };
}
