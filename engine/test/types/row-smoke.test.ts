import { EngineHarness } from '../support/engine-harness.js';
import { formatValueAsText } from '../../src/types/values.js';

describe('row smoke', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const sqls = [
    "SELECT ROW(1, 'a')",
    'SELECT CAST(ROW(1, 2e0) AS ROW(x BIGINT, y DOUBLE))',
    'SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).x',
    'SELECT ROW(1, 2.0)[1]',
    "SELECT typeof(CAST(ROW(1, 2e0) AS ROW(x BIGINT, y DOUBLE)))",
    'SELECT ROW(1, 2) = ROW(1, 2), ROW(1, NULL) = ROW(1, 2), ROW(1, NULL) = ROW(2, 2), ROW(1,2) < ROW(1,3)',
    'SELECT (1, 2) IN ((1, 2), (3, 4)), (1, NULL) IN ((1, 2), (3, 4)), (5, 6) IN ((1, 2))',
    'SELECT r, count(*) FROM (VALUES ROW(1, 2), ROW(1, 2), ROW(3, NULL)) t(a, b) CROSS JOIN (SELECT 1) GROUP BY ROW(a, b) AS r',
    'SELECT DISTINCT ROW(a, b) FROM (VALUES (1, 2), (1, 2), (3, NULL)) t(a, b) ORDER BY 1',
    'SELECT r.x FROM (SELECT CAST(ROW(a, b) AS ROW(x integer, y integer)) AS r FROM (VALUES (1, 2), (3, 4)) t(a, b)) ORDER BY r DESC',
    'SELECT ARRAY[ROW(1, 2), ROW(3, 4)], ROW(ARRAY[1], 2)',
    'SELECT ROW(1, 2) IS DISTINCT FROM ROW(1, NULL), ROW(1, NULL) IS DISTINCT FROM ROW(1, NULL)',
  ];
  for (const sql of sqls) {
    it(sql, async () => {
      try {
        const { rows, columns, types } = await engine.query(sql);
        console.log(types, rows.map((r) => r.map((v, i) => formatValueAsText(v, columns[i].type)).join(' | ')));
      } catch (e) {
        console.log('ERR', (e as Error).message);
      }
    });
  }
});
