// ALTER TABLE ... ALTER COLUMN ... SET DATA TYPE and ALTER TABLE | VIEW | SCHEMA ... SET AUTHORIZATION:
// checked as Trino checks them (the table, column, type, role), then refused where Trino refuses them
// for these catalogs: no connector here changes a column's type (as Trino's memory and Hive
// connectors), and owners are Trino's system security metadata, which without a security system
// keeps no roles (ROLE_NOT_FOUND) and no owners ("Catalog does not support permission management").

import { EngineError } from '../../errors/engine-error.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { sqlTypeOf } from '../../sql/analyzer/type-spec.js';
import { qualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatQualifiedName, formatType } from '../../sql/parser/expression-formatter.js';
import { schemaExists } from '../../sql/metadata/statement-metadata.js';
import { schemaTarget } from './ddl-statements.js';
import { updateResult } from './results.js';

export async function setColumnType(s: ast.SetColumnType, metadata: StatementMetadata): Promise<StatementResult> {
  const table = await metadata.table(s.table);
  if (table === undefined) {
    if (s.tableExists) return updateResult('SET COLUMN TYPE');
    const q = qualifiedObjectName(s.table, metadata.session);
    const view = (await metadata.view(s.table)) !== undefined ? ', but a view with that name exists.' : '';
    throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist${view}`, s.location);
  }
  const column = s.column.parts[0].value;
  if (!table.columns.some((c) => c.name === column))
    throw new EngineError('COLUMN_NOT_FOUND', `Column '${formatQualifiedName(s.column)}' does not exist`, s.location);
  try {
    sqlTypeOf(s.type);
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'TYPE_NOT_FOUND')
      throw new EngineError(
        'TYPE_NOT_FOUND',
        `Unknown type '${formatType(s.type)}' for column '${formatQualifiedName(s.column)}'`,
        s.type.location,
      );
    throw e;
  }
  const what = s.column.parts.length > 1 ? 'setting field types' : 'setting column types';
  throw new EngineError('NOT_SUPPORTED', `This connector does not support ${what}`, s.location);
}

export async function setAuthorization(s: ast.SetAuthorization, metadata: StatementMetadata): Promise<StatementResult> {
  const q = qualifiedObjectName(s.name, metadata.session);
  const name = `${q.catalog}.${q.schema}.${q.name}`;
  switch (s.entityKind) {
    case 'SCHEMA': {
      const { catalog, schema, connector } = schemaTarget(s.name, metadata);
      if (!(await schemaExists(connector, metadata.session, schema)))
        throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${catalog}.${schema}' does not exist`, s.location);
      return refuseOwner(s, catalog);
    }
    case 'TABLE':
      if ((await metadata.table(s.name)) === undefined)
        throw new EngineError('TABLE_NOT_FOUND', `Table '${name}' does not exist`, s.location);
      break;
    case 'VIEW':
      if ((await metadata.view(s.name)) === undefined)
        throw new EngineError('TABLE_NOT_FOUND', `View '${name}' does not exist`, s.location);
      break;
    default:
      throw new EngineError('TABLE_NOT_FOUND', `Materialized view '${name}' does not exist`, s.location);
  }
  return refuseOwner(s, q.catalog);
}

function refuseOwner(s: ast.SetAuthorization, catalog: string): never {
  if (s.principal.type === 'ROLE')
    throw new EngineError('ROLE_NOT_FOUND', `Role '${s.principal.name.value.toLowerCase()}' does not exist`, s.location);
  throw new EngineError('NOT_SUPPORTED', `Catalog does not support permission management: ${catalog}`, s.location);
}
