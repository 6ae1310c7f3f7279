// format(format, args...): java.util.Formatter over the arguments as the Java values Trino passes
// (java-values.ts). A NULL format gives NULL; a NULL argument prints as Java prints null.

import type { Scalar } from '../../../types/scalar.js';
import { VARCHAR } from '../../../types/types.js';
import { type ScalarFunctionDefinition, body } from '../signature.js';
import { javaFormat } from './java-formatter.js';
import { javaValueOf } from './java-values.js';

export const FORMAT_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['format'],
    description: 'Formats the arguments with a Java format string',
    signatures: [
      {
        params: [{ family: 'varchar' }, { anyType: true }],
        variadic: { minArgs: 2 },
        returnType: VARCHAR,
        implement: (argumentTypes) => {
          const converters = argumentTypes.slice(1).map(javaValueOf);
          return body(
            (format: string | null, ...args: Scalar[]) =>
              format === null
                ? null
                : javaFormat(
                    format,
                    args.map((a, i) => converters[i](a)),
                  ),
            { acceptsNulls: true, mayReturnNull: true },
          );
        },
      },
    ],
  },
];
