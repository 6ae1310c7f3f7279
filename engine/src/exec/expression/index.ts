// The expression compiler's public API.

export { compileExpression, compileFilter, compileProjection, evaluateConstant, type FilterResult } from './compiler.js';
export { TRYABLE_ERRORS } from './special-forms.js';
