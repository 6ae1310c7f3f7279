// Keyword classes of Trino's grammar (SqlBase.g4 and the "Reserved keywords" table of the Trino docs).

/** Reserved words: never a bare identifier (quote them to use them as names). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'ALTER', 'AND', 'AS', 'AUTO', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CONSTRAINT', 'CREATE', 'CROSS', 'CUBE',
  'CURRENT_CATALOG', 'CURRENT_DATE', 'CURRENT_PATH', 'CURRENT_ROLE', 'CURRENT_SCHEMA', 'CURRENT_TIME',
  'CURRENT_TIMESTAMP', 'CURRENT_USER', 'DEALLOCATE', 'DELETE', 'DESCRIBE', 'DISTINCT', 'DROP', 'ELSE', 'END',
  'ESCAPE', 'EXCEPT', 'EXISTS', 'EXTRACT', 'FALSE', 'FOR', 'FROM', 'FULL', 'GROUP', 'GROUPING',
  'HAVING', 'IN', 'INNER', 'INSERT', 'INTERSECT', 'INTO', 'IS', 'JOIN', 'JSON_ARRAY', 'JSON_EXISTS',
  'JSON_OBJECT', 'JSON_QUERY', 'JSON_TABLE', 'JSON_VALUE', 'LEFT', 'LIKE', 'LISTAGG', 'LOCALTIME',
  'LOCALTIMESTAMP', 'NATURAL', 'NORMALIZE', 'NOT', 'NULL', 'ON', 'OR', 'ORDER', 'OUTER', 'PREPARE',
  'RECURSIVE', 'RIGHT', 'ROLLUP', 'SELECT', 'SKIP', 'TABLE', 'THEN', 'TRIM', 'TRUE', 'UESCAPE', 'UNION',
  'UNNEST', 'USING', 'VALUES', 'WHEN', 'WHERE', 'WITH',
]);

/**
 * Non-reserved words that start a clause after a select item or relation. They stay usable as names
 * (`SELECT limit FROM t`, `AS limit`) but never as a bare alias, where Trino's parser also reads the clause.
 */
export const CLAUSE_WORDS: ReadonlySet<string> = new Set(['LIMIT', 'OFFSET', 'FETCH', 'WINDOW']);

/** Words that begin a query body (after an opening parenthesis they announce a subquery). */
export const QUERY_START_WORDS: ReadonlySet<string> = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);
