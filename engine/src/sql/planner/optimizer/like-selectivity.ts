// The share of rows `value LIKE pattern` keeps, without statistics of the column's strings. Trino
// gives LIKE its unknown-filter coefficient (0.9), DuckDB's cardinality estimator its default
// selectivity (0.2), and PostgreSQL's like_selectivity, with no histogram to match, about 0.2 per
// literal character of the pattern (0.2^5 x 5 for '%green%'): far more or far fewer rows than
// TPC-H's patterns keep. The figures are the shares TPC-H's own patterns keep at sf0.1 (DuckDB's
// count(*) over our generator's rows; words drawn at random per row, so alike at other scales):
//   leading wildcard:  p_name '%green%' 5.4% (q09), p_type '%BRASS' 20% (q02),
//                      o_comment '%special%requests%' 1.1% (q13), s_comment '%Customer%Complaints%' 0.1% (q16);
//   prefix:            p_type 'PROMO%' 16.5% (q14), 'MEDIUM POLISHED%' 3.2% (q16), p_name 'forest%' 0.95% (q20).
// A pattern with a leading wildcard matches a word anywhere in the string: 5% is q09's share (whose
// probe side a fixed 0.7 made 13 times too large, and so broadcast orders) and within 4 or 5 times
// of the others but the rare complaints. A prefix is a range of strings, like a few values of an
// equality: 5% too. A pattern without wildcards is an equality.

import type { SpecialForm } from '../row-expression.js';

const LEADING_WILDCARD_SELECTIVITY = 0.05;
const PREFIX_SELECTIVITY = 0.05;
const EXACT_SELECTIVITY = 0.1;

/** The share of rows a LIKE keeps by its pattern's shape, or undefined when the pattern is not a constant. */
export function likeSelectivity(like: SpecialForm): number | undefined {
  const pattern = like.args[1];
  if (pattern.kind !== 'constant' || typeof pattern.value !== 'string') return undefined;
  if (pattern.value.startsWith('%') || pattern.value.startsWith('_')) return LEADING_WILDCARD_SELECTIVITY;
  return /[%_]/.test(pattern.value) ? PREFIX_SELECTIVITY : EXACT_SELECTIVITY;
}
