import { DuckDBInstance } from '@duckdb/node-api';
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(`CREATE TABLE l AS SELECT i AS l_orderkey, (i*7 % 1000000)::DECIMAL(15,2) / 100 AS l_extendedprice, ((i % 11)::DECIMAL(15,2)) / 100 AS l_discount, 'comment text ' || (i*13 % 100000) AS l_comment, DATE '1992-01-01' + (i % 2500)::INTEGER AS l_shipdate FROM range(600000) r(i)`);
await db.run(`COPY l TO '/tmp/pq/l.parquet' (FORMAT PARQUET)`);
const r = await db.runAndReadAll(`SELECT path_in_schema, encodings, compression, total_compressed_size FROM parquet_metadata('/tmp/pq/l.parquet') WHERE row_group_id = 0`);
console.log(r.getRows());
