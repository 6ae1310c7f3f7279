// cosine_similarity and cosine_distance of sparse vectors, map(varchar, double) (Trino's math
// page): a key missing from one map is a zero there; a NULL value makes the result NULL.

import { type MapValue, findKey } from '../../types/map-value.js';
import { DOUBLE, VARCHAR, mapOf } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

function norm(map: MapValue): number | null {
  let sum = 0;
  for (const v of map.values) {
    if (v === null) return null;
    sum += (v as number) * (v as number);
  }
  return Math.sqrt(sum);
}

export function sparseCosineSimilarity(left: MapValue, right: MapValue): number | null {
  const [a, b] = [norm(left), norm(right)];
  if (a === null || b === null) return null;
  let dot = 0;
  for (let i = 0; i < left.size; i++) {
    const j = findKey(right, left.keys[i]);
    if (j >= 0) dot += (left.values[i] as number) * (right.values[j] as number);
  }
  return dot / (a * b);
}

const SPARSE_VECTOR = mapOf(VARCHAR, DOUBLE);

export const MAP_VECTOR_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['cosine_similarity'],
    description: 'Cosine similarity between the given sparse vectors',
    signatures: [
      {
        params: [SPARSE_VECTOR, SPARSE_VECTOR],
        returnType: DOUBLE,
        implement: () => body(sparseCosineSimilarity, { mayReturnNull: true }),
      },
    ],
  },
  {
    names: ['cosine_distance'],
    description: 'Cosine distance between the given sparse vectors',
    signatures: [
      {
        params: [SPARSE_VECTOR, SPARSE_VECTOR],
        returnType: DOUBLE,
        implement: () =>
          body(
            (left: MapValue, right: MapValue) => {
              const similarity = sparseCosineSimilarity(left, right);
              return similarity === null ? null : 1 - similarity;
            },
            { mayReturnNull: true },
          ),
      },
    ],
  },
];
