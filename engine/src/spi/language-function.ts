// A SQL routine a catalog stores (CREATE FUNCTION), as Trino's LanguageFunction: the routine's SQL
// text (`FUNCTION name(...) RETURNS ... body`, as the formatter writes it) under its schema and name;
// routines of one name differ by their parameter types, which `signatureToken` spells.

export interface LanguageFunction {
  /** The parameter types, lower case, comma separated: `bigint,varchar(10)`. */
  readonly signatureToken: string;
  readonly sql: string;
  /** Who created it (SHOW FUNCTIONS, SECURITY DEFINER). */
  readonly owner?: string;
}

/** A catalog that stores routines: a catalog without leaves Connector.languageFunctions undefined. */
export interface LanguageFunctionStorage {
  /** Every routine of a schema, with its name. */
  list(schema: string): Promise<{ name: string; fn: LanguageFunction }[]>;
  /** The routines of one name (its overloads). */
  get(schema: string, name: string): Promise<LanguageFunction[]>;
  /** Stores the routine; another of the same name and signature is replaced when `replace`, else ALREADY_EXISTS. */
  create(schema: string, name: string, fn: LanguageFunction, replace: boolean): Promise<void>;
  /** Drops the routine of this name and signature; NOT_FOUND when there is none. */
  drop(schema: string, name: string, signatureToken: string): Promise<void>;
}
