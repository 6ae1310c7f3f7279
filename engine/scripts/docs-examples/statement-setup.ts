// What each statement page's examples expect to exist: the tables they name, created in the memory
// catalog (the session's default, memory.default) with the columns the examples imply. TPC-H tables
// are views over the catalog DOCS_TPCH_CATALOG (tpch with Trino's default SIMPLIFIED column names, as
// the pages use them) at the scale the page's results come from (sf1), or copies of its tiny schema
// where the examples change them. `isolated`: the examples are alternatives to each other
// (ALTER TABLE users RENAME ..., then ALTER TABLE users ADD ...), so each runs on a fresh engine
// after the setup; otherwise the page's examples run in order on one engine.

import type { DocExample } from './extract.js';

export interface PageSetup {
  statements: readonly string[];
  isolated?: boolean;
  /** Examples the page's prose says fail, with the error Trino gives them. */
  failing?: Readonly<Record<string, string>>;
  /** Examples whose documented result is not what Trino gives: what it gives (its rows, or its one value), and the evidence. */
  errata?: Readonly<Record<string, Erratum>>;
}

export interface Erratum {
  result: string | readonly string[];
  why: string;
}

/** The example with Trino's own result where the page documents another. */
export function withErratum(example: DocExample, setup: PageSetup): DocExample {
  const erratum = setup.errata?.[example.sql];
  if (erratum === undefined) return example;
  return typeof erratum.result === 'string'
    ? { sql: example.sql, expected: erratum.result }
    : { sql: example.sql, expectedRows: [...erratum.result] };
}

export const DOCS_TPCH_CATALOG = 'tpch_simplified';

const tpchView = (table: string) => `CREATE VIEW ${table} AS SELECT * FROM ${DOCS_TPCH_CATALOG}.sf1.${table}`;
const tpchCopy = (table: string) => `CREATE TABLE ${table} AS SELECT * FROM ${DOCS_TPCH_CATALOG}.tiny.${table}`;
const users = (name: string) =>
  `CREATE TABLE ${name} AS SELECT * FROM (VALUES (1, 'alice', 'US'), (2, 'bob', 'DE')) AS t (id, name, country)`;

const shipping = `CREATE TABLE shipping AS SELECT * FROM (VALUES
  ('California', 94131, 'New Jersey', 8648, 13),
  ('California', 94131, 'New Jersey', 8540, 42),
  ('New Jersey', 7081, 'Connecticut', 6708, 225),
  ('California', 90210, 'Connecticut', 6927, 1337),
  ('California', 94131, 'Colorado', 80302, 5),
  ('New York', 10002, 'New Jersey', 8540, 3)
) AS t (origin_state, origin_zip, destination_state, destination_zip, package_weight)`;

const accounts = (name: string) =>
  `CREATE TABLE ${name} AS SELECT * FROM (VALUES ('Aaron', 10, 'Arlington'), ('Bill', 20, 'Centreville'), ('Carol', 30, 'Dover')) AS t (customer, purchases, address)`;

export const STATEMENT_PAGE_SETUP: Readonly<Record<string, PageSetup>> = {
  'select.md': {
    statements: [
      ...['nation', 'region', 'customer', 'orders', 'lineitem'].map(tpchView),
      shipping,
      users('users'),
      `CREATE TABLE trades AS SELECT * FROM (VALUES ('A', TIMESTAMP '2025-01-01 10:00:00'), ('B', TIMESTAMP '2025-01-01 10:05:00')) AS t (symbol, ts)`,
      `CREATE TABLE quotes AS SELECT * FROM (VALUES ('A', TIMESTAMP '2025-01-01 09:59:00', 10.5), ('B', TIMESTAMP '2025-01-01 10:06:00', 20.25)) AS t (symbol, ts, price)`,
      // The tables of the examples about subqueries, WITH and ORDER BY, with the columns they name.
      ...['t', 'x'].map((name) => `CREATE TABLE ${name} AS SELECT * FROM (VALUES (1, 10), (1, 20), (2, 5)) AS v (a, b)`),
      'CREATE TABLE y AS SELECT * FROM (VALUES (1, 1.5), (2, 2.5)) AS v (a, d)',
      ...['some_table', 'another_table'].map((name) => `CREATE TABLE ${name} AS SELECT * FROM (VALUES (1, 'a')) AS v (key, field)`),
    ],
    failing: { 'SELECT name FROM nation CROSS JOIN region': 'AMBIGUOUS_NAME' },
  },
  'types.md': {
    statements: [],
    errata: {
      "SELECT TIME '01:02:03.456 -08:00'": {
        result: '01:02:03.456-08:00',
        why: "the page drops the hour's leading zero; Trino's SqlTimeWithTimeZone.toString writes two digits, as its CLI shows",
      },
    },
  },
  'show-functions.md': {
    statements: [],
    errata: {
      "SHOW FUNCTIONS LIKE 'cf%'": {
        result: [],
        why: "the page shows a custom plugin's functions; Trino ships no function named cf_* (none in its source), so it lists none",
      },
    },
  },
  'create-view.md': { statements: [tpchView('orders')] },
  'drop-view.md': {
    statements: [
      tpchView('orders'),
      'CREATE VIEW orders_by_date AS SELECT orderdate, sum(totalprice) AS price FROM orders GROUP BY orderdate',
    ],
    isolated: true,
  },
  'show-create-view.md': { statements: [] },
  // Not `people` too: the first examples rename users to it. An id NOT NULL, for DROP NOT NULL.
  'alter-table.md': {
    statements: ['CREATE TABLE users (id integer NOT NULL, name varchar, country varchar)', "INSERT INTO users VALUES (1, 'alice', 'US')"],
    isolated: true,
  },
  'comment.md': { statements: [users('users')], isolated: true },
  'delete.md': { statements: [tpchCopy('orders'), tpchCopy('lineitem')], isolated: true },
  'truncate.md': { statements: [tpchCopy('orders')], isolated: true },
  'update.md': {
    statements: [
      `CREATE TABLE purchases AS SELECT * FROM (VALUES (CAST('NEW' AS varchar), DATE '2025-01-02'), ('NEW', NULL)) AS t (status, ship_date)`,
      `CREATE TABLE customers AS SELECT * FROM (VALUES (CAST('Ann' AS varchar), CAST(NULL AS timestamp(3) with time zone))) AS t (account_manager, assign_date)`,
      `CREATE TABLE employees AS SELECT * FROM (VALUES (1, CAST('Ann' AS varchar)), (2, 'Bo')) AS t (employee_id, name)`,
      `CREATE TABLE new_hires AS SELECT * FROM (VALUES (1, CAST(NULL AS varchar)), (2, NULL)) AS t (manager_id, manager)`,
    ],
    isolated: true,
  },
  'merge.md': { statements: [accounts('accounts'), accounts('monthly_accounts_update')], isolated: true },
  'start-transaction.md': { statements: [], isolated: true },
  // The routine pages: the catalog routine the examples drop or show, in the catalog `example` (docs-examples.ts).
  // (create-function.md's two CREATEs are alternatives: the second, unqualified, names the first's routine.)
  'create-function.md': { statements: [], isolated: true },
  'drop-function.md': {
    statements: [
      'CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint RETURN 42',
      'CREATE FUNCTION example.default.multiply_by_two(x bigint) RETURNS bigint RETURN x * 2',
    ],
    isolated: true,
  },
  'show-create-function.md': { statements: ['CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint RETURN 42'] },
  'commit.md': { statements: ['START TRANSACTION'], isolated: true },
  'rollback.md': { statements: ['START TRANSACTION'], isolated: true },
};
