// Functions the analyzer translates itself (expression-translator.ts: typeof, now, current_timezone,
// date as a cast), which Trino registers as ordinary scalar functions: listed by SHOW FUNCTIONS with
// Trino's signatures and descriptions. (coalesce, if, nullif, try and cast are special forms in
// Trino too, and are not listed.)

import type { FunctionInfo } from '../function-info.js';

export const ANALYZER_FUNCTION_INFOS: readonly FunctionInfo[] = [
  { name: 'current_groups', returnType: 'array(varchar)', argumentTypes: [], description: 'Current groups of current user' },
  { name: 'current_timezone', returnType: 'varchar', argumentTypes: [], description: 'Current time zone' },
  { name: 'date', returnType: 'date', argumentTypes: ['timestamp(p)'], description: '' },
  { name: 'date', returnType: 'date', argumentTypes: ['timestamp(p) with time zone'], description: '' },
  { name: 'date', returnType: 'date', argumentTypes: ['varchar(x)'], description: '' },
  { name: 'now', returnType: 'timestamp(3) with time zone', argumentTypes: [], description: 'Current timestamp with time zone' },
  { name: 'typeof', returnType: 'varchar', argumentTypes: ['T'], description: 'Textual representation of expression type' },
].map((info) => ({ ...info, functionType: 'scalar', deterministic: true }));
