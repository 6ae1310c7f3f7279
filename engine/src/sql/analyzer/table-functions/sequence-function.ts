// system.builtin.sequence(start => 0, stop, step => 1): bigint values from start to stop (included
// when reached), step apart, in one column `sequential_number`, with Trino's checks. The rows come
// from a scan of the table-function catalog (connectors/table-functions): generated split by split,
// on whichever node or thread reads the split.

import { EngineError } from '../../../errors/engine-error.js';
import { sequenceTable, SEQUENCE_COLUMN } from '../../../connectors/table-functions/sequence-connector.js';
import type { SequenceRange } from '../../../connectors/table-functions/sequence-range.js';
import { BIGINT } from '../../../types/types.js';
import type { PlanNode } from '../../planner/plan.js';
import { Scope } from '../scope.js';
import type { BoundArgument } from './table-function-arguments.js';
import type { TableFunction } from './table-function-planner.js';

export const SEQUENCE_FUNCTION: TableFunction = {
  name: 'sequence',
  arguments: [
    { kind: 'scalar', name: 'START', type: BIGINT, defaultValue: 0n },
    { kind: 'scalar', name: 'STOP', type: BIGINT },
    { kind: 'scalar', name: 'STEP', type: BIGINT, defaultValue: 1n },
  ],
  plan(context, args) {
    const given = sequenceArguments(args);
    const table = sequenceTable(sequenceRange(given), given.step);
    const symbol = context.factory.newSymbol(SEQUENCE_COLUMN, BIGINT);
    const node: PlanNode = { kind: 'TableScan', id: context.factory.nodeId(), outputs: [symbol], table, columns: table.columns };
    return { node, scope: new Scope([{ name: SEQUENCE_COLUMN, qualifier: undefined, symbol }]) };
  },
};

/** The arguments' values, with Trino's messages for NULLs. */
function sequenceArguments(args: ReadonlyMap<string, BoundArgument>): SequenceRange {
  const value = (name: string, shown: string): bigint => {
    const argument = args.get(name);
    const scalar = argument?.kind === 'scalar' ? argument.value : null;
    if (scalar === null) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `${shown} is null`);
    return BigInt(scalar as bigint | number);
  };
  return { start: value('START', 'Start'), stop: value('STOP', 'Stop'), step: value('STEP', 'Step') };
}

/** The range the arguments give, with Trino's messages for steps that lead away from stop. */
function sequenceRange({ start, stop, step }: SequenceRange): SequenceRange {
  if (start < stop && step <= 0n)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Step must be positive for sequence [${start}, ${stop}]`);
  if (start > stop && step >= 0n)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Step must be negative for sequence [${start}, ${stop}]`);
  return { start, stop, step: start === stop ? 0n : step };
}
