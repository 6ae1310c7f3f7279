// Functions that build rows: zip(array1, array2[, ...]) -> array(row(T1, T2, ...)).

import type { Scalar } from '../../types/scalar.js';
import { type RowType, anonymousRow } from '../../types/row-type.js';
import { type SqlType, VARCHAR, arrayOf } from '../../types/types.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

/** Trino's zip takes two to five arrays. */
const ZIP_ARITIES = [2, 3, 4, 5];

function zipTemplate(arity: number): SignatureTemplate {
  return {
    params: Array.from({ length: arity }, (_, i) => ({ arrayOf: `T${i + 1}` })),
    returnType: (types: readonly SqlType[]) => arrayOf(anonymousRow(types.map((t) => (t.kind === 'array' ? t.element : t)))),
    returnTypeDisplay: 'array(row)',
    // Shorter arrays are padded with NULLs to the longest.
    implement: () =>
      body((...arrays: (readonly Scalar[])[]) => {
        const length = Math.max(...arrays.map((a) => a.length));
        return Array.from({ length }, (_, i) => arrays.map((a) => (i < a.length ? a[i] : null)));
      }),
  };
}

/** ROW::fields(r) (static-method-call.ts): the names of r's fields, from its type alone. */
const ROW_FIELDS: SignatureTemplate = {
  params: [{ variable: 'T' }],
  returnType: arrayOf(VARCHAR),
  implement: ([type]) => {
    const names = (type as RowType).fields.map((f) => f.name ?? null);
    return body(() => names, { acceptsNulls: true });
  },
};

export const ROW_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  { names: ['$row_fields'], description: 'Returns the field names of the row type', signatures: [ROW_FIELDS] },
  {
    names: ['zip'],
    description: 'Merges the given arrays, element-wise, into a single array of rows',
    signatures: ZIP_ARITIES.map(zipTemplate),
  },
];
