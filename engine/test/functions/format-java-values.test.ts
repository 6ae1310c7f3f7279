// format() over every value Trino hands java.util.Formatter. Expectations: Trino's
// TestFormatFunction.testFormat (zoned timestamps as ZonedDateTime with %tc, time with time zone,
// ipaddress and json as text, and its error messages, which name java.util's exceptions without
// "Exception"); for %h, Java's hashCode of each class (String's 31-polynomial: "hello" is 0x5e918d2;
// Long's high ^ low word; Double's and Float's bits; Boolean 1231; BigDecimal 31 * unscaled + scale;
// LocalDate (year & 0xFFFFF800) ^ ((year << 11) + (month << 6) + day); LocalTime Long.hashCode of its
// nanos of day; LocalDateTime date ^ time; ZonedDateTime dateTime ^ offset seconds ^ rotateLeft(zone
// hash, 3)), worked out by hand; %tz, %ts and %tQ of an instant as Java defines them.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('format over Java values', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const format = async (pattern: string, ...args: string[]) => (await engine.rows(`SELECT format('${pattern}', ${args.join(', ')})`))[0][0];

  it("gives Trino's TestFormatFunction results for zones, addresses and json", async () => {
    expect(await format('%1$s %1$tc', "cast('1969-07-20 16:17:00 America/New_York' AS timestamp with time zone)")).to.equal(
      '1969-07-20T16:17-04:00[America/New_York] Sun Jul 20 16:17:00 EDT 1969',
    );
    expect(await format('%1$s %1$tc', "cast('1969-07-20 20:17:00 UTC' AS timestamp with time zone)")).to.equal(
      '1969-07-20T20:17Z[UTC] Sun Jul 20 20:17:00 UTC 1969',
    );
    expect(await format('%s', "cast('16:17:13 -05:00' AS time with time zone)")).to.equal('16:17:13.000-05:00');
    expect(await format('%s', "ipaddress '192.168.88.123'")).to.equal('192.168.88.123');
    expect(await format('%s', "ipaddress '2001:db8:0:0:1:0:0:1'")).to.equal('2001:db8::1:0:0:1');
    expect(await format('%s', `json '[123,"abc",true]'`)).to.equal('[123,"abc",true]');
    // Other types go through their CAST to varchar (Trino's fallback): uuid, intervals.
    expect(await format('%s|%s|%s', "UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'", "INTERVAL '1' DAY", "INTERVAL '3' MONTH")).to.equal(
      '12151fd2-7586-11e9-8f9e-2a86e4085a59|1 00:00:00.000|0-3',
    );
    expect(await format('%1$s %1$tF %1$tT', "timestamp '1969-07-20 16:17:03'")).to.equal('1969-07-20T16:17:03 1969-07-20 16:17:03');
  });

  it("fails with Trino's messages", async () => {
    const cases: [string, string][] = [
      ["format('%.4d', 8)", 'Invalid format string: %.4d (IllegalFormatPrecision: 4)'],
      ["format('%+s', 8)", 'Invalid format string: %+s (FormatFlagsConversionMismatch: Conversion = s, Flags = +)'],
      ["format('%-s', 8)", 'Invalid format string: %-s (MissingFormatWidth: %-s)'],
      ["format('%s %d', 8)", "Invalid format string: %s %d (MissingFormatArgument: Format specifier '%d')"],
      ["format('%d', decimal '8')", 'Invalid format string: %d (IllegalFormatConversion: d != java.math.BigDecimal)'],
      ["format('%c', 65)", 'Invalid format string: %c (IllegalFormatConversion: c != java.lang.Long)'],
      ["format('%#h', 65)", 'Invalid format string: %#h (FormatFlagsConversionMismatch: Conversion = h, Flags = #)'],
    ];
    for (const [call, message] of cases) {
      const e = await engine.failure(`SELECT ${call}`);
      expect([e.errorName, e.rawMessage], call).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', message]);
    }
    const e = await engine.failure("SELECT format('%s', array[8])");
    expect([e.errorName, e.rawMessage]).to.deep.equal(['NOT_SUPPORTED', 'Type not supported for formatting: array(integer)']);
  });

  it("prints %h as the hex of Java's hashCode, %c of NULL as null", async () => {
    expect(await format('%h %H %h', "'hello'", "'hello'", 'NULL')).to.equal('5e918d2 5E918D2 null');
    expect(await format('%h|%h|%h|%h', '1', '-1', 'true', 'false')).to.equal('1|0|4cf|4d5');
    expect(await format('%h|%h', "DOUBLE '1.0'", "REAL '1.0'")).to.equal('3ff00000|3f800000');
    expect(await format('%h|%h', "DECIMAL '1.5'", "DECIMAL '12345678901234567890.5'")).to.equal('1d2|4fbe9863');
    expect(await format('%h|%h|%h', "DATE '2001-08-22'", "TIME '16:17:13'", "TIMESTAMP '1969-07-20 16:17'")).to.equal(
      '3e8a16|8f232f53|887b6484',
    );
    expect(await format('%h', "TIMESTAMP '1969-07-20 20:17:00 UTC'")).to.equal('4b1edf9d');
    expect(await format('%-8h|%.3h', '1', "'hello'")).to.equal('1       |5e9');
    expect(await format('%c', 'NULL')).to.equal('null');
  });

  it('prints the offset, epoch seconds and millis of a zoned timestamp, and refuses them for a local one', async () => {
    const ny = "TIMESTAMP '1969-07-20 16:17:00 America/New_York'";
    expect(await format('%1$tz %1$tZ %1$ts %1$tQ', ny)).to.equal('-0400 EDT -14182980 -14182980000');
    expect(await format('%1$tz %1$tZ %1$s', "TIMESTAMP '2020-01-01 00:00:00 +05:30'")).to.equal('+0530 +05:30 2020-01-01T00:00+05:30');
    const e = await engine.failure("SELECT format('%ts', TIMESTAMP '2020-01-01 00:00:00')");
    expect(e.rawMessage).to.equal('Invalid format string: %ts (UnsupportedTemporalTypeException: Unsupported field: InstantSeconds)');
  });

  it("names zones with %tZ as Java does, the daylight name where the offset is not the zone's standard one", async () => {
    // Java 25 (Temurin 25.0.3, Trino's JDK): String.format(Locale.US, "%tZ", ZonedDateTime.ofInstant(instant, zone)).
    const cases: [zone: string, utc: string, java: string][] = [
      ['Europe/Paris', '2020-01-15 12:00:00', 'CET'],
      ['Europe/Paris', '2020-07-15 12:00:00', 'CEST'],
      ['Asia/Tokyo', '2020-07-01 01:00:00', 'JST'],
      ['Europe/Dublin', '2021-01-10 00:00:00', 'GMT'],
      ['Europe/Dublin', '2021-07-10 00:00:00', 'IST'],
      ['Africa/Casablanca', '2023-04-01 12:00:00', 'GMT'],
      ['Africa/Casablanca', '2023-06-01 12:00:00', 'GMT+01:00'],
      ['America/Sao_Paulo', '2018-01-10 12:00:00', 'GMT-02:00'],
      ['America/Sao_Paulo', '2024-01-10 12:00:00', 'GMT-03:00'],
      ['Australia/Lord_Howe', '2024-01-10 12:00:00', 'GMT+11:00'],
      ['Australia/Lord_Howe', '2024-07-10 12:00:00', 'GMT+10:30'],
      ['Australia/Sydney', '2024-01-10 12:00:00', 'AEDT'],
      ['Asia/Kolkata', '2024-01-10 12:00:00', 'IST'],
      ['Europe/London', '1944-06-10 12:00:00', 'BST'],
      ['Europe/Moscow', '2024-06-10 12:00:00', 'MSK'],
      ['America/New_York', '1850-06-10 12:00:00', 'EST'],
      ['Pacific/Chatham', '2024-01-10 12:00:00', 'GMT+13:45'],
      ['Asia/Kathmandu', '2024-01-10 12:00:00', 'GMT+05:45'],
    ];
    const sql = cases.map(([zone, utc]) => `format('%tZ', TIMESTAMP '${utc} UTC' AT TIME ZONE '${zone}')`).join(', ');
    expect((await engine.rows(`SELECT ${sql}`))[0]).to.deep.equal(cases.map((c) => c[2]));
  });
});
