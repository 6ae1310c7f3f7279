// The functions and operators of VARIANT (Trino's VariantFunctions and VariantOperators): variant_is_null,
// and the subscript of a variant array (1-based, bigint) or object (by field name, NULL when absent).

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, BOOLEAN, VARCHAR, VARIANT } from '../../types/types.js';
import { decodeVariant, encodeVariant } from '../../types/variant/variant-encoding.js';
import { variantTypeName } from '../../types/variant/variant-value.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

function arrayElement(variant: Uint8Array, index: bigint): Uint8Array {
  const value = decodeVariant(variant);
  if (value.kind !== 'array') throw invalidArgument(`VARIANT value is ${variantTypeName(value)}, not an array`);
  if (index === 0n) throw invalidArgument('VARIANT array indices start at 1');
  if (index < 0n) throw invalidArgument(`VARIANT array subscript is negative: ${index}`);
  if (index > BigInt(value.elements.length))
    throw invalidArgument(`VARIANT array subscript must be less than or equal to array length: ${index} > ${value.elements.length}`);
  return encodeVariant(value.elements[Number(index) - 1]);
}

function objectField(variant: Uint8Array, name: string): Uint8Array | null {
  const value = decodeVariant(variant);
  if (value.kind !== 'object') throw invalidArgument(`VARIANT value is ${variantTypeName(value)}, not an object`);
  const field = value.fields.get(name);
  return field === undefined ? null : encodeVariant(field);
}

export const VARIANT_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['variant_is_null'],
    description: 'Returns true if the variant value is a variant null (not a SQL NULL)',
    signatures: [{ params: [VARIANT], returnType: BOOLEAN, implement: () => body((v: Uint8Array) => decodeVariant(v).kind === 'null') }],
  },
];

export const VARIANT_OPERATORS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['subscript'],
    description: 'VARIANT subscript',
    signatures: [
      { params: [VARIANT, BIGINT], returnType: VARIANT, implement: () => body(arrayElement) },
      { params: [VARIANT, VARCHAR], returnType: VARIANT, implement: () => body(objectField, { mayReturnNull: true }) },
    ],
  },
];
