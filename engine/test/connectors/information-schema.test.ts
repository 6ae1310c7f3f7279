import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import { CatalogManager } from '../../src/connectors/catalog-manager.js';
import type { Connector } from '../../src/spi/connector.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { BIGINT, BOOLEAN, decimal, varchar } from '../../src/types/types.js';
import { readTable, testSession } from './helpers.js';

const session = testSession();

function memoryCatalog(): { catalogs: CatalogManager; memory: Connector } {
  const catalogs = new CatalogManager();
  catalogs.register('memory', new MemoryConnector('memory'));
  const memory = catalogs.get('memory');
  if (memory === undefined) throw new Error('memory catalog missing');
  memory.createSchema?.(session, 'shop', {});
  memory.createTable?.(session, {
    catalog: 'memory',
    schema: 'shop',
    name: 'orders',
    columns: [
      { name: 'id', type: BIGINT, nullable: false },
      { name: 'customer', type: varchar(25), comment: 'who ordered' },
      { name: 'total', type: decimal(12, 2) },
      { name: 'paid', type: BOOLEAN },
    ],
  });
  return { catalogs, memory };
}

describe('catalog manager', () => {
  it('registers catalogs under lower-case names', async () => {
    const catalogs = new CatalogManager();
    catalogs.register('Memory', new MemoryConnector('memory'));
    catalogs.register('other', new MemoryConnector('other'));
    expect(catalogs.names()).to.deep.equal(['memory', 'other']);
    expect(catalogs.get('MEMORY')?.name).to.equal('memory');
    expect(catalogs.get('missing')).to.equal(undefined);
  });

  it('refuses a catalog name twice', async () => {
    const catalogs = new CatalogManager();
    catalogs.register('memory', new MemoryConnector());
    expect(() => catalogs.register('MEMORY', new MemoryConnector())).to.throw(EngineError, "Catalog 'memory' already exists");
  });
});

describe('information_schema', () => {
  it('is listed among the schemas and has its tables', async () => {
    const { memory } = memoryCatalog();
    expect(await memory.listSchemas(session)).to.deep.equal(['default', 'shop', 'information_schema']);
    expect((await memory.listTables(session, 'information_schema')).map((t) => t.table)).to.deep.equal([
      'schemata',
      'tables',
      'views',
      'columns',
    ]);
    expect(await memory.listTables(session, 'shop')).to.deep.equal([{ schema: 'shop', table: 'orders' }]);
    expect((await memory.listTables(session)).map((t) => `${t.schema}.${t.table}`)).to.deep.equal([
      'shop.orders',
      'information_schema.schemata',
      'information_schema.tables',
      'information_schema.views',
      'information_schema.columns',
    ]);
    expect((await memory.getTable(session, 'information_schema', 'columns'))?.columns.map((c) => c.name)).to.deep.equal([
      'table_catalog',
      'table_schema',
      'table_name',
      'column_name',
      'ordinal_position',
      'column_default',
      'is_nullable',
      'data_type',
      'comment',
    ]);
  });

  it('schemata lists every schema of the catalog', async () => {
    const { memory } = memoryCatalog();
    expect(await readTable(memory, 'information_schema', 'schemata')).to.deep.equal([
      ['memory', 'default'],
      ['memory', 'information_schema'],
      ['memory', 'shop'],
    ]);
  });

  it('tables lists base tables, information_schema included', async () => {
    const { memory } = memoryCatalog();
    expect(await readTable(memory, 'information_schema', 'tables')).to.deep.equal([
      ['memory', 'information_schema', 'columns', 'BASE TABLE'],
      ['memory', 'information_schema', 'schemata', 'BASE TABLE'],
      ['memory', 'information_schema', 'tables', 'BASE TABLE'],
      ['memory', 'information_schema', 'views', 'BASE TABLE'],
      ['memory', 'shop', 'orders', 'BASE TABLE'],
    ]);
  });

  it('columns describes each column with its Trino type name', async () => {
    const { memory } = memoryCatalog();
    const rows = await readTable(memory, 'information_schema', 'columns');
    expect(rows.filter((r) => r[1] === 'shop')).to.deep.equal([
      ['memory', 'shop', 'orders', 'id', 1n, null, 'NO', 'bigint', null],
      ['memory', 'shop', 'orders', 'customer', 2n, null, 'YES', 'varchar(25)', 'who ordered'],
      ['memory', 'shop', 'orders', 'total', 3n, null, 'YES', 'decimal(12,2)', null],
      ['memory', 'shop', 'orders', 'paid', 4n, null, 'YES', 'boolean', null],
    ]);
    const ownColumns = rows.filter((r) => r[1] === 'information_schema' && r[2] === 'schemata');
    expect(ownColumns.map((r) => [r[3], r[7]])).to.deep.equal([
      ['catalog_name', 'varchar'],
      ['schema_name', 'varchar'],
    ]);
  });

  it('reads only the requested columns', async () => {
    const { memory } = memoryCatalog();
    const rows = await readTable(memory, 'information_schema', 'columns', ['data_type', 'ordinal_position']);
    expect(rows.slice(0, 2)).to.deep.equal([
      ['varchar', 1n],
      ['varchar', 2n],
    ]);
  });

  it('is live: splits made earlier see tables created later', async () => {
    const { memory } = memoryCatalog();
    const tables = await memory.getTable(session, 'information_schema', 'tables');
    if (tables === undefined) throw new Error('tables missing');
    const splits = await allSplits(memory.getSplits(session, tables));
    await memory.createTable?.(session, { catalog: 'memory', schema: 'default', name: 'later', columns: [{ name: 'x', type: BIGINT }] });
    const rows: unknown[][] = [];
    for await (const page of memory.createPageSource(session, splits[0], ['table_schema', 'table_name'])) {
      for (let r = 0; r < page.rowCount; r++) rows.push([(page.columns[0].values as string[])[r], (page.columns[1].values as string[])[r]]);
    }
    expect(rows).to.deep.include(['default', 'later']);
  });

  it('is read-only, and passes other writes through', async () => {
    const { memory } = memoryCatalog();
    const info = { catalog: 'memory', schema: 'information_schema', name: 't', columns: [{ name: 'x', type: BIGINT }] };
    const refusal = async (write: Promise<unknown> | undefined) => {
      const error = await write?.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(EngineError);
      return (error as EngineError).message;
    };
    expect(await refusal(memory.createTable?.(session, info))).to.equal('This connector does not support creating tables');
    expect(await refusal(memory.createSchema?.(session, 'information_schema', {}))).to.equal(
      "Schema 'memory.information_schema' already exists",
    );
    expect(await refusal(memory.dropTable?.(session, 'information_schema', 'tables'))).to.contain('does not support dropping tables');
    expect(await refusal(memory.beginInsert?.(session, { ...info, name: 'tables' }))).to.contain('does not support inserts');
    await memory.dropSchema?.(session, 'shop', true);
    expect(await memory.listSchemas(session)).to.deep.equal(['default', 'information_schema']);
  });
});
