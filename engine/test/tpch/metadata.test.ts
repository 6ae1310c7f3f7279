// Schemas, tables, column types and statistics of the tpch connector.

import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { typeName } from '../../src/types/types.js';
import { TpchConnector } from '../../src/connectors/tpch/tpch-connector.js';
import { testSession } from '../connectors/helpers.js';
import { connector, table } from './helpers.js';

const TABLES = ['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier'];

const COLUMNS: Record<string, string[]> = {
  nation: ['n_nationkey bigint', 'n_name varchar(25)', 'n_regionkey bigint', 'n_comment varchar(152)'],
  region: ['r_regionkey bigint', 'r_name varchar(25)', 'r_comment varchar(152)'],
  part: [
    'p_partkey bigint',
    'p_name varchar(55)',
    'p_mfgr varchar(25)',
    'p_brand varchar(10)',
    'p_type varchar(25)',
    'p_size integer',
    'p_container varchar(10)',
    'p_retailprice decimal(12,2)',
    'p_comment varchar(23)',
  ],
  supplier: [
    's_suppkey bigint',
    's_name varchar(25)',
    's_address varchar(40)',
    's_nationkey bigint',
    's_phone varchar(15)',
    's_acctbal decimal(12,2)',
    's_comment varchar(101)',
  ],
  partsupp: ['ps_partkey bigint', 'ps_suppkey bigint', 'ps_availqty integer', 'ps_supplycost decimal(12,2)', 'ps_comment varchar(199)'],
  customer: [
    'c_custkey bigint',
    'c_name varchar(25)',
    'c_address varchar(40)',
    'c_nationkey bigint',
    'c_phone varchar(15)',
    'c_acctbal decimal(12,2)',
    'c_mktsegment varchar(10)',
    'c_comment varchar(117)',
  ],
  orders: [
    'o_orderkey bigint',
    'o_custkey bigint',
    'o_orderstatus varchar(1)',
    'o_totalprice decimal(12,2)',
    'o_orderdate date',
    'o_orderpriority varchar(15)',
    'o_clerk varchar(15)',
    'o_shippriority integer',
    'o_comment varchar(79)',
  ],
  lineitem: [
    'l_orderkey bigint',
    'l_partkey bigint',
    'l_suppkey bigint',
    'l_linenumber integer',
    'l_quantity decimal(12,2)',
    'l_extendedprice decimal(12,2)',
    'l_discount decimal(12,2)',
    'l_tax decimal(12,2)',
    'l_returnflag varchar(1)',
    'l_linestatus varchar(1)',
    'l_shipdate date',
    'l_commitdate date',
    'l_receiptdate date',
    'l_shipinstruct varchar(25)',
    'l_shipmode varchar(10)',
    'l_comment varchar(44)',
  ],
};

describe('tpch: metadata', () => {
  const session = testSession();

  it('is named tpch unless told otherwise', async () => {
    expect(new TpchConnector().name).to.equal('tpch');
    expect(new TpchConnector('bench').name).to.equal('bench');
    expect((await new TpchConnector('bench').getTable(session, 'tiny', 'nation'))?.catalog).to.equal('bench');
  });

  it('lists the standard schemas', async () => {
    expect(await connector.listSchemas(session)).to.deep.equal(['tiny', 'sf1', 'sf10', 'sf100', 'sf300', 'sf1000']);
  });

  it('lists the eight tables of a schema, and of every listed schema', async () => {
    expect((await connector.listTables(session, 'tiny')).map((t) => t.table)).to.deep.equal(TABLES);
    expect((await connector.listTables(session, 'sf0.5')).map((t) => `${t.schema}.${t.table}`)).to.deep.equal(
      TABLES.map((t) => `sf0.5.${t}`),
    );
    expect(await connector.listTables(session)).to.have.length(6 * 8);
    expect(await connector.listTables(session, 'nope')).to.deep.equal([]);
  });

  for (const [name, columns] of Object.entries(COLUMNS)) {
    it(`${name} has the specification's columns and types`, async () => {
      const metadata = await table('sf1', name);
      expect(metadata).to.include({ catalog: 'tpch', schema: 'sf1', name });
      expect(metadata.columns.map((c) => `${c.name} ${typeName(c.type)}`)).to.deep.equal(columns);
    });
  }

  it('accepts sf<N> for any positive N, fractional too', async () => {
    for (const schema of ['tiny', 'sf1', 'sf10', 'sf100', 'sf300', 'sf1000', 'sf0.1', 'sf0.001', 'sf2.5', 'sf30000']) {
      expect(await connector.getTable(session, schema, 'lineitem'), schema).to.not.equal(undefined);
    }
    for (const schema of ['sf0', 'sf0.0', 'sf-1', 'sf', 'sfx', 'sf1e3', 'SF1', 'small', 'information_schema']) {
      expect(await connector.getTable(session, schema, 'lineitem'), schema).to.equal(undefined);
    }
    expect(await connector.getTable(session, 'tiny', 'lineitems')).to.equal(undefined);
  });

  it('counts rows exactly', async () => {
    const rows = async (schema: string, name: string) => (await connector.getTableStatistics(session, await table(schema, name)))?.rowCount;
    const tiny = { nation: 25, region: 5, part: 2000, supplier: 100, partsupp: 8000, customer: 1500, orders: 15000, lineitem: 60175 };
    for (const [name, count] of Object.entries(tiny)) expect(await rows('tiny', name), name).to.equal(count);
    const sf1 = { part: 200000, supplier: 10000, partsupp: 800000, customer: 150000, orders: 1500000, lineitem: 6001215 };
    for (const [name, count] of Object.entries(sf1)) expect(await rows('sf1', name), name).to.equal(count);
    expect(await rows('sf0.1', 'lineitem')).to.equal(600572);
    expect(await rows('sf10', 'lineitem')).to.equal(59986052);
    expect(await rows('sf1000', 'orders')).to.equal(1_500_000_000);
  });

  it('fails on tables and schemas it does not have', async () => {
    const split = { catalog: 'tpch', schema: 'tiny', table: 'nope', info: { start: 0, end: 1 } };
    expect(() => connector.createPageSource(session, split, [])).to.throw(EngineError, "Table 'tpch.tiny.nope' does not exist");
    const badSchema = { ...split, schema: 'huge', table: 'nation' };
    expect(() => connector.createPageSource(session, badSchema, [])).to.throw(EngineError, "Schema 'tpch.huge' does not exist");
    const [nation] = await allSplits(connector.getSplits(session, await table('tiny', 'nation')));
    expect(() => connector.createPageSource(session, nation, ['n_name', 'l_comment']))
      .to.throw(EngineError, "Column 'l_comment' cannot be resolved")
      .with.property('errorName', 'COLUMN_NOT_FOUND');
  });
});
