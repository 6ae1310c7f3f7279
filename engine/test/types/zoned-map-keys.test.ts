// Zoned timestamps and times as map keys, as Trino keys them: two keys of one instant written in
// different zones (or one time at different offsets) are the same key, whichever constructor,
// lookup, aggregate or comparison meets them; the key keeps the zone it was written in.

import { expect } from 'chai';
import { cliRows, failureCases, typedCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

const UTC = "TIMESTAMP '2020-01-01 00:00:00 UTC'";
const PARIS = "TIMESTAMP '2020-01-01 01:00:00 Europe/Paris'";
const LONG_UTC = "TIMESTAMP '2020-01-01 00:00:00.123456789 UTC'";
const LONG_KOLKATA = "TIMESTAMP '2020-01-01 05:30:00.123456789 Asia/Kolkata'";

describe('zoned types as map keys', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  typedCases(
    [
      [`MAP(ARRAY[${UTC}], ARRAY[1])`, '{2020-01-01 00:00:00 UTC=1}', 'map(timestamp(0) with time zone, integer)'],
      [`MAP(ARRAY[${UTC}], ARRAY[1])[${PARIS}]`, '1', 'integer'],
      [`element_at(MAP(ARRAY[${LONG_UTC}], ARRAY[1]), ${LONG_KOLKATA})`, '1', 'integer'],
      [`element_at(MAP(ARRAY[${LONG_UTC}], ARRAY[1]), TIMESTAMP '2020-01-01 00:00:00.123456788 UTC')`, 'NULL', 'integer'],
      [`MAP(ARRAY[TIME '12:00:00+00:00'], ARRAY['noon'])[TIME '13:00:00+01:00']`, 'noon', 'varchar(4)'],
      [
        `map_concat(MAP(ARRAY[${UTC}], ARRAY[1]), MAP(ARRAY[${PARIS}], ARRAY[2]))`,
        '{2020-01-01 01:00:00 Europe/Paris=2}',
        'map(timestamp(0) with time zone, integer)',
      ],
      [`MAP(ARRAY[${UTC}], ARRAY[1]) = MAP(ARRAY[${PARIS}], ARRAY[1])`, 'true', 'boolean'],
      [`MAP(ARRAY[ARRAY[${UTC}]], ARRAY[1])[ARRAY[${PARIS}]]`, '1', 'integer'],
      [
        `multimap_from_entries(ARRAY[(${UTC}, 1), (${PARIS}, 2)])`,
        '{2020-01-01 00:00:00 UTC=[1, 2]}',
        'map(timestamp(0) with time zone, array(integer))',
      ],
      [
        `map_zip_with(MAP(ARRAY[${UTC}], ARRAY[1]), MAP(ARRAY[${PARIS}], ARRAY[2]), (k, a, b) -> a + b)`,
        '{2020-01-01 00:00:00 UTC=3}',
        'map(timestamp(0) with time zone, integer)',
      ],
      [
        `array_histogram(ARRAY[${LONG_UTC}, ${LONG_KOLKATA}])`,
        '{2020-01-01 00:00:00.123456789 UTC=2}',
        'map(timestamp(9) with time zone, bigint)',
      ],
    ],
    engine,
  );

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      [`SELECT MAP(ARRAY[${UTC}, ${PARIS}], ARRAY[1, 2])`, 'Duplicate map keys (2020-01-01 01:00:00 Europe/Paris) are not allowed'],
      [
        `SELECT map_from_entries(ARRAY[(${LONG_UTC}, 1), (${LONG_KOLKATA}, 2)])`,
        'Duplicate map keys (2020-01-01 05:30:00.123456789 Asia/Kolkata) are not allowed',
      ],
      [
        `SELECT transform_keys(MAP(ARRAY[0, 1], ARRAY[1, 2]), (k, v) -> if(k = 0, ${UTC}, ${PARIS}))`,
        'Duplicate keys (2020-01-01 01:00:00 Europe/Paris) are not allowed',
      ],
      // Rounded to seconds, the two keys become one instant.
      [
        `SELECT CAST(MAP(ARRAY[TIMESTAMP '2020-01-01 00:00:00.1 UTC', TIMESTAMP '2020-01-01 01:00:00.2 Europe/Paris'], ARRAY[1, 2]) AS map(timestamp(0) with time zone, integer))`,
        'Duplicate map keys (2020-01-01 01:00:00 Europe/Paris) are not allowed',
      ],
    ],
    engine,
  );

  it('aggregates into one entry per instant and groups maps by instants', async () => {
    const values = `VALUES (${UTC}, 1), (${PARIS}, 2), (TIMESTAMP '2020-01-01 00:00:00 America/New_York', 3)`;
    expect(
      await cliRows(
        engine,
        `SELECT cardinality(map_agg(t, k)), histogram(t)[${PARIS}], cardinality(multimap_agg(t, k)[${UTC}]) FROM (${values}) v(t, k)`,
      ),
    ).to.deep.equal([['2', '2', '2']]);
    expect(
      await cliRows(engine, `SELECT count(DISTINCT m) FROM (VALUES MAP(ARRAY[${UTC}], ARRAY[1]), MAP(ARRAY[${PARIS}], ARRAY[1])) v(m)`),
    ).to.deep.equal([['1']]);
  });

  it('stores such maps in a memory table and looks keys up in another zone', async () => {
    await engine.query('CREATE TABLE memory.default.zoned_keys (m map(timestamp(3) with time zone, integer))');
    await engine.query(`INSERT INTO memory.default.zoned_keys VALUES (MAP(ARRAY[${UTC}], ARRAY[5]))`);
    expect(await cliRows(engine, `SELECT m[${PARIS}], m FROM memory.default.zoned_keys`)).to.deep.equal([
      ['5', '{2020-01-01 00:00:00.000 UTC=5}'],
    ]);
  });
});
