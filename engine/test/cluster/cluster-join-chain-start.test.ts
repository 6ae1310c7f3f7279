// The join orders join_chain_far_start and join_chain_fewer_rows_next give (see
// test/optimizer/join-chain-start.test.ts) answer as DuckDB does on a coordinator and two workers too,
// on and off: TPC-H q02, q03, q07, q08, q09 and q17 from memory tables at tiny and from the tpch
// connector at sf0.1.

import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const QUERIES = [2, 3, 7, 8, 9, 17];
const SETTINGS = ['join_chain_far_start=true', 'join_chain_far_start=false', 'join_chain_fewer_rows_next=false'];

describe('join chains started far from the biggest input on a cluster (coordinator + 2 workers) equal DuckDB', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);

  for (const [catalog, schema] of [
    ['memory', 'tiny'],
    ['tpch', 'sf0.1'],
  ] as const) {
    describe(`from ${catalog}.${schema}`, () => {
      let duck: DuckDBConnection;

      before(async () => {
        duck = await duckDbWithTpch(schema, 2);
        if (catalog === 'memory') {
          await query(cluster.coordinator.uri, `CREATE SCHEMA memory.${schema}`);
          for (const table of TPCH_TABLE_NAMES)
            await query(cluster.coordinator.uri, `CREATE TABLE memory.${schema}.${table} AS SELECT * FROM tpch.${schema}.${table}`);
        }
      });
      after(() => duck?.closeSync());

      for (const q of QUERIES) {
        it(`q${String(q).padStart(2, '0')}, with the choice on and off`, async () => {
          for (const session of SETTINGS) {
            const headers = {
              'X-Engine-User': 'test',
              'X-Engine-Catalog': catalog,
              'X-Engine-Schema': schema,
              'X-Engine-Session': session,
            };
            await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(q), headers, { label: `q${q} ${session}` });
          }
        });
      }
    });
  }
});
