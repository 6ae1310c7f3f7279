// functions/regexp.md: every documented example, with the documented results (arrays as Trino's
// CLI prints them).

import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';

const TEXT = 'I have 23 apples, 5 pears and 13 oranges';

documentedExamples('functions/regexp.md', [
  ["SELECT regexp_count('1a 2b 14m', '\\s*[a-z]+\\s*')", '3'],
  ["SELECT regexp_extract_all('1a 2b 14m', '\\d+')", '[1, 2, 14]'],
  ["SELECT regexp_extract_all('1a 2b 14m', '(\\d+)([a-z]+)', 2)", '[a, b, m]'],
  ["SELECT regexp_extract('1a 2b 14m', '\\d+')", '1'],
  ["SELECT regexp_extract('1a 2b 14m', '(\\d+)([a-z]+)', 2)", 'a'],
  ["SELECT regexp_like('1a 2b 14m', '\\d+b')", 'true'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b')`, '8'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 5)`, '8'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 12)`, '19'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 12, 1)`, '19'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 12, 2)`, '31'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 12, 3)`, '-1'],
  ["SELECT regexp_replace('1a 2b 14m', '\\d+[ab] ')", '14m'],
  ["SELECT regexp_replace('1a 2b 14m', '(\\d+)([ab]) ', '3c$2 ')", '3ca 3cb 14m'],
  ["SELECT regexp_split('1a 2b 14m', '\\s*[a-z]+\\s*')", '[1, 2, 14, ]'],
  ["SELECT regexp_replace('new york', '(\\w)(\\w*)', x -> upper(x[1]) || lower(x[2]))", 'New York'],
  // lambda.md's example, and a lambda giving NULL, which makes the whole result NULL.
  ["SELECT regexp_replace('once upon a time ...', '^(\\w)(\\w*)(\\s+.*)$', x -> upper(x[1]) || x[2] || x[3])", 'Once upon a time ...'],
  ["SELECT regexp_replace('abc', 'b', x -> NULL)", 'NULL'],
  // Described: a group that takes no part in a match is NULL; an empty pattern splits between characters.
  ["SELECT regexp_extract_all('abc', '(x)?b', 1)", '[NULL]'],
  ["SELECT regexp_split('abc', '')", '[, a, b, c, ]'],
  [`SELECT regexp_position('${TEXT}', '\\b\\d+\\b', 100)`, '-1'],
] satisfies DocumentedExample[]);

describe('regexp functions: bad input', () => {
  failureCases('INVALID_FUNCTION_ARGUMENT', [
    ["SELECT regexp_position('abc', 'b', 0)", 'start position cannot be smaller than 1'],
    ["SELECT regexp_position('abc', 'b', 1, 0)", 'occurrence cannot be smaller than 1'],
    ["SELECT regexp_extract_all('abc', '(b)', 2)", 'Pattern has 1 groups. Cannot access group 2'],
  ]);
});
