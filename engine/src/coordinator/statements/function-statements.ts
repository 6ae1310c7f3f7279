// CREATE [OR REPLACE] FUNCTION, DROP FUNCTION [IF EXISTS] and SHOW CREATE FUNCTION: SQL routines a
// catalog stores (spi/language-function.ts), with Trino's checks and messages. A routine is analyzed
// when created (its body's types, variables, labels and the routines it calls), stored as the SQL
// the formatter writes for it, and called by its full name `catalog.schema.name(...)`.

import { EngineError, locatedAsync, type SourceLocation } from '../../errors/engine-error.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { LanguageFunction, LanguageFunctionStorage } from '../../spi/language-function.js';
import { typeName } from '../../types/types.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatQualifiedName } from '../../sql/parser/expression-formatter.js';
import { formatFunctionSpecification } from '../../sql/parser/routine-formatter.js';
import { sqlTypeOf } from '../../sql/analyzer/type-spec.js';
import { analyzeRoutine, characteristicsOf, parametersOf } from '../../sql/routines/routine-analyzer.js';
import { parseStoredRoutine } from '../../sql/routines/catalog-routines.js';
import { rowsResult, updateResult, varcharColumns } from './results.js';
import type { FunctionRow } from './show-statements.js';

interface FunctionTarget {
  catalog: string;
  schema: string;
  name: string;
  storage: LanguageFunctionStorage;
}

export async function createFunction(s: ast.CreateFunction, metadata: StatementMetadata): Promise<StatementResult> {
  const spec = s.specification;
  const target = functionTarget(spec.declaration.name, metadata, 'creating', s.location);
  // Stored under its own name: calls name it fully, SHOW CREATE FUNCTION puts the catalog and schema back.
  const stored: ast.FunctionSpecification = {
    ...spec,
    declaration: { ...spec.declaration, name: { ...spec.declaration.name, parts: spec.declaration.name.parts.slice(-1) } },
  };
  // The catalog routines the body calls are in sight (the executor loaded them for the statement).
  analyzeRoutine(stored, metadata.session);
  const signatureToken = signature(parametersOf(stored).map((p) => p.type));
  const fn = { signatureToken, sql: formatFunctionSpecification(stored), owner: metadata.session.user };
  await locatedAsync(s.location, () => target.storage.create(target.schema, target.name, fn, s.replace));
  return updateResult('CREATE FUNCTION');
}

export async function dropFunction(s: ast.DropFunction, metadata: StatementMetadata): Promise<StatementResult> {
  const target = functionTarget(s.declaration.name, metadata, 'dropping', s.location);
  const signatureToken = signature(s.declaration.parameters.map((p) => sqlTypeOf(p.type)));
  const exists = (await target.storage.get(target.schema, target.name)).some((fn) => fn.signatureToken === signatureToken);
  if (!exists) {
    if (s.exists) return updateResult('DROP FUNCTION');
    throw new EngineError('NOT_FOUND', 'Function not found', s.location);
  }
  await locatedAsync(s.location, () => target.storage.drop(target.schema, target.name, signatureToken));
  return updateResult('DROP FUNCTION');
}

/** One row per routine of the name (its overloads), each the CREATE FUNCTION statement that makes it. */
export async function showCreateFunction(s: ast.ShowCreate, metadata: StatementMetadata): Promise<StatementResult> {
  const target = functionTarget(s.name, metadata, 'showing', s.location);
  const functions = await target.storage.get(target.schema, target.name);
  if (functions.length === 0)
    throw new EngineError('NOT_FOUND', `Function not found: ${target.catalog}.${target.schema}.${target.name}`, s.location);
  const rows = functions.map((fn) => {
    const spec = parseStoredRoutine(fn);
    const name = {
      ...spec.declaration.name,
      parts: [target.catalog, target.schema, target.name].map((value) => ({ ...spec.declaration.name.parts[0], value })),
    };
    return [`CREATE ${formatFunctionSpecification({ ...spec, declaration: { ...spec.declaration, name } })}`];
  });
  return rowsResult(varcharColumns('Create Function'), rows);
}

/**
 * The SQL routines SHOW FUNCTIONS lists, as rows (the comment is the description): without FROM,
 * those of each schema on sql.path, as Trino lists its path's; FROM catalog.schema, that schema's
 * (none for a catalog that stores no routines).
 */
export async function routineFunctionRows(s: ast.ShowFunctions, metadata: StatementMetadata): Promise<FunctionRow[]> {
  const parts = s.schema?.parts.map((p) => p.value.toLowerCase());
  const schemas =
    parts === undefined ? metadata.catalogs.sqlEnvironment.path : parts.length === 2 ? [{ catalog: parts[0], schema: parts[1] }] : [];
  const rows: FunctionRow[][] = [];
  for (const { catalog, schema } of schemas) {
    const storage = metadata.catalogs.get(catalog)?.languageFunctions;
    if (storage !== undefined) rows.push((await storage.list(schema)).map(({ name, fn }) => routineRow(name, fn)));
  }
  return rows.flat();
}

function routineRow(name: string, fn: LanguageFunction): FunctionRow {
  const spec = parseStoredRoutine(fn);
  const characteristics = characteristicsOf(spec);
  const argumentTypes = parametersOf(spec)
    .map((p) => typeName(p.type))
    .join(', ');
  return [
    name,
    typeName(sqlTypeOf(spec.returnType)),
    argumentTypes,
    'scalar',
    characteristics.deterministic,
    characteristics.comment ?? '',
  ];
}

/** The parameter types as a signature token: `bigint,varchar(10)`. */
function signature(types: readonly Parameters<typeof typeName>[0][]): string {
  return types.map(typeName).join(',');
}

/** Where a routine named `name` is stored: a fully qualified name, in a catalog that stores routines. */
function functionTarget(name: ast.QualifiedName, metadata: StatementMetadata, action: string, location: SourceLocation): FunctionTarget {
  const defaultSchema = metadata.catalogs.sqlEnvironment.defaultFunctionSchema;
  const written = name.parts.map((p) => p.value.toLowerCase());
  const parts = written.length === 1 && defaultSchema !== undefined ? [defaultSchema.catalog, defaultSchema.schema, written[0]] : written;
  if (parts.length === 1)
    throw new EngineError('NOT_SUPPORTED', 'Catalog and schema must be specified when function schema is not configured', name.location);
  if (parts.length === 2)
    throw new EngineError('NOT_SUPPORTED', 'Function name must be unqualified or fully qualified with catalog and schema', name.location);
  if (parts.length > 3)
    throw new EngineError('SYNTAX_ERROR', `Too many dots in function name: ${formatQualifiedName(name)}`, name.location);
  const [catalog, schema, routine] = parts;
  const storage = metadata.connector(catalog, name.location).languageFunctions;
  if (storage === undefined) throw new EngineError('NOT_SUPPORTED', `This connector does not support ${action} functions`, location);
  return { catalog, schema, name: routine, storage };
}
