// Implicit coercion of plain temporal values to zoned ones, as Trino's TypeCoercion: a timestamp(p)
// becomes timestamp(p) with time zone in the session zone where a zoned value is expected
// (comparisons, function arguments, IN, CASE, COALESCE, VALUES, UNION, INSERT into a zoned column),
// a date at its midnight there, a time(p) at the session's offset. The oracle for the instants is
// Node's Intl (not the engine's zone code); Trino's TestTimestamp gives to_unixtime's result.

import { expect } from 'chai';
import { cliRows, failureCases, typedCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

function inZone(zone: string): EngineHarness {
  const engine = new EngineHarness();
  engine.session.timeZone = zone;
  return engine;
}

/** 'YYYY-MM-DD HH:MM:SS' of an instant's wall clock in `zone`, by Intl. */
function wallClock(epochMillis: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(epochMillis);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

describe('implicit coercion to zoned types', function () {
  this.timeout(60_000);

  describe("Trino's TestTimestamp (session zone Pacific/Apia)", () => {
    typedCases(
      [
        ["to_unixtime(TIMESTAMP '2020-05-10 12:34:56.1234567')", '1.5890672961234567E9', 'double'],
        ["to_unixtime(TIMESTAMP '2020-05-10 12:34:56.123456789012')", '1.5890672961234567E9', 'double'],
      ],
      inZone('Pacific/Apia'),
    );
  });

  describe('in the places Trino coerces (session zone America/Los_Angeles)', () => {
    const engine = inZone('America/Los_Angeles');
    typedCases(
      [
        ["TIMESTAMP '2020-05-01 12:00:00' = TIMESTAMP '2020-05-01 19:00:00 UTC'", 'true', 'boolean'],
        ["TIMESTAMP '2020-05-01 12:00:00.123456789' < TIMESTAMP '2020-05-01 19:00:00.1234567891 UTC'", 'true', 'boolean'],
        ["TIMESTAMP '2020-05-01 12:00:00' IN (TIMESTAMP '2020-05-01 19:00:00 UTC')", 'true', 'boolean'],
        ["DATE '2020-05-01' = TIMESTAMP '2020-05-01 07:00:00 UTC'", 'true', 'boolean'],
        ["at_timezone(TIMESTAMP '2020-05-01 12:00:00', 'UTC')", '2020-05-01 19:00:00 UTC', 'timestamp(0) with time zone'],
        ["timezone_hour(TIMESTAMP '2020-01-01 12:00:00')", '-8', 'bigint'],
        [
          "CASE WHEN true THEN TIMESTAMP '2020-05-01 12:00:00' ELSE TIMESTAMP '2020-05-01 12:00:00 UTC' END",
          '2020-05-01 12:00:00 America/Los_Angeles',
          'timestamp(0) with time zone',
        ],
        [
          "coalesce(DATE '2020-05-01', TIMESTAMP '2020-05-01 12:00:00.000 UTC')",
          '2020-05-01 00:00:00.000 America/Los_Angeles',
          'timestamp(3) with time zone',
        ],
      ],
      engine,
    );

    it('UNION and VALUES meet at the zoned type', async () => {
      expect(
        await cliRows(engine, "SELECT TIMESTAMP '2020-05-01 12:00:00' UNION ALL SELECT TIMESTAMP '2020-05-01 12:00:00 UTC'"),
      ).to.deep.equal([['2020-05-01 12:00:00 America/Los_Angeles'], ['2020-05-01 12:00:00 UTC']]);
      const values = await engine.query(
        "SELECT x FROM (VALUES TIMESTAMP '2020-05-01 12:00:00.1234567', TIMESTAMP '2020-05-01 12:00:00 UTC') v(x)",
      );
      expect(values.types).to.deep.equal(['timestamp(7) with time zone']);
    });

    it('INSERT stores a plain timestamp into a zoned column in the session zone', async () => {
      await engine.query('CREATE TABLE memory.default.zoned_insert (t timestamp(3) with time zone)');
      await engine.query(
        "INSERT INTO memory.default.zoned_insert VALUES (TIMESTAMP '2020-05-01 12:00:00'), (TIMESTAMP '2020-05-01 12:00:00.9999')",
      );
      expect(await cliRows(engine, 'SELECT t FROM memory.default.zoned_insert ORDER BY t')).to.deep.equal([
        ['2020-05-01 12:00:00.000 America/Los_Angeles'],
        ['2020-05-01 12:00:01.000 America/Los_Angeles'],
      ]);
    });

    it('UPDATE and MERGE set a zoned column from a plain timestamp in the session zone', async () => {
      await engine.query("CREATE TABLE memory.default.zoned_update AS SELECT 1 AS id, TIMESTAMP '2020-01-01 00:00:00.000 UTC' AS t");
      await engine.query("UPDATE memory.default.zoned_update SET t = TIMESTAMP '2021-01-01 00:00:00'");
      expect(await cliRows(engine, 'SELECT t FROM memory.default.zoned_update')).to.deep.equal([
        ['2021-01-01 00:00:00.000 America/Los_Angeles'],
      ]);
      await engine.query(
        "MERGE INTO memory.default.zoned_update x USING (VALUES (1, TIMESTAMP '2022-06-01 00:00:00')) s(id, t) ON x.id = s.id WHEN MATCHED THEN UPDATE SET t = s.t",
      );
      expect(await cliRows(engine, 'SELECT t FROM memory.default.zoned_update')).to.deep.equal([
        ['2022-06-01 00:00:00.000 America/Los_Angeles'],
      ]);
    });

    failureCases('TYPE_MISMATCH', [["SELECT DATE '2020-01-01' - DATE '2019-01-01'", 'Cannot apply operator: date - date']], engine);
  });

  it('time(p) meets time(p) with time zone at the session offset', async () => {
    // Kolkata is +05:30 all year: 12:00 there is 06:30 at +00:00.
    const engine = inZone('Asia/Kolkata');
    expect(
      await cliRows(engine, "SELECT TIME '12:00:00' = TIME '06:30:00+00:00', TIME '12:00:00.1234567' = TIME '12:00:00.1234567+05:30'"),
    ).to.deep.equal([['true', 'true']]);
  });

  for (const zone of ['America/Los_Angeles', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
    it(`reads plain timestamps in the session zone as Intl does (${zone})`, async () => {
      const engine = inZone(zone);
      // Instants every 7 hours 13 minutes through 2021, away from each fall-back hour (which has two instants).
      const step = (7 * 60 + 13) * 60_000;
      const instants: number[] = [];
      for (let t = Date.UTC(2021, 0, 1); t < Date.UTC(2022, 0, 1); t += step) {
        const unambiguous =
          wallClock(t - 3 * 3_600_000, zone) < wallClock(t, zone) && wallClock(t, zone) < wallClock(t + 3 * 3_600_000, zone);
        const offsetSteady =
          new Date(wallClock(t - 2 * 3_600_000, zone).replace(' ', 'T') + 'Z').getTime() - (t - 2 * 3_600_000) ===
          new Date(wallClock(t + 2 * 3_600_000, zone).replace(' ', 'T') + 'Z').getTime() - (t + 2 * 3_600_000);
        if (unambiguous && offsetSteady) instants.push(t);
      }
      const values = instants.map((t) => `(TIMESTAMP '${wallClock(t, zone)}')`).join(', ');
      const { rows } = await engine.query(`SELECT to_unixtime(x) FROM (VALUES ${values}) v(x)`);
      expect(rows.map((r) => r[0])).to.deep.equal(instants.map((t) => t / 1000));
    });
  }
});
