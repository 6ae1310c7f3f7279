export type { WindowEvaluator, WindowFunction, WindowPartition } from './window-function.js';
export { isWindowFunctionName, listWindowFunctions, resolveWindowFunction } from './registry.js';
