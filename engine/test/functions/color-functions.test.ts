// Trino's color type and functions (functions/color.md): results checked against Trino's own
// expected values (TestColorFunctions, the product test color_functions/bar.result), the bars color.md
// describes, HSB interpolation checked against the JDK's java.awt.Color (the table below was computed
// with jshell from Color.RGBtoHSB / Color.HSBtoRGB, as Trino's ColorFunctions.interpolate uses them),
// and Trino's errors for bad input.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const ESC = '\u001b';
const BLOCK = '\u2588';
/** A bar's blocks from their ANSI color indexes, then the reset and `spaces` spaces. */
const bar = (indexes: readonly number[], spaces = 0): string =>
  `${indexes.map((i) => `${ESC}[38;5;${i}m${BLOCK}`).join('')}${ESC}[0m${' '.repeat(spaces)}`;
const hex = (rgb: number): string => `#${rgb.toString(16).padStart(6, '0')}`;

const JDK_INTERPOLATIONS: readonly [fraction: string, low: number, high: number, expected: number][] = [
  ['0.5639', 0x39d585, 0x42ff0e, 0x23ed35],
  ['-0.0145', 0x5b28c5, 0x73eb91, 0x5b28c5],
  ['0.0953', 0xed9e53, 0xd5cb78, 0xeba557],
  ['0.028', 0x49e3c7, 0xc889ea, 0x4be3cf],
  ['0.0817', 0x431fd5, 0x600b4c, 0x4e1dcb],
  ['-0.1026', 0xd0623b, 0x7ad27b, 0xd0623b],
  ['0.7751', 0xd73dc5, 0xa10d5f, 0xad1675],
  ['1.0656', 0x4245bd, 0x5a4fe6, 0x5a4fe6],
  ['1.0846', 0x8a978e, 0x771145, 0x771145],
  ['0.0801', 0xe5dc6f, 0x434a34, 0xd9d46d],
  ['-0.0899', 0x918ff4, 0x852d90, 0x918ff4],
  ['0.6063', 0x8ecd35, 0x3f6537, 0x588e3d],
  ['0.3154', 0x55c7ba, 0x677bdf, 0x5ab9cf],
  ['0.8692', 0x10b3c7, 0xdbd01e, 0xaed81c],
  ['0.0233', 0xf9f073, 0xbf4eeb, 0xf6f972],
  ['1.0288', 0x83d77d, 0xc5be66, 0xc5be66],
  ['0.0413', 0x59936b, 0x75e50b, 0x589669],
  ['1.1225', 0x61277e, 0xd79231, 0xd79231],
  ['-0.114', 0x71b847, 0x653569, 0x71b847],
  ['0.7445', 0xa50d02, 0xb7b69d, 0xb2a173],
  ['0.4988', 0xcc12b2, 0x366c19, 0x19689c],
  ['0.5293', 0x4c476d, 0xff3f4f, 0xba51b2],
  ['0.023', 0xe58036, 0xda61de, 0xe59337],
  ['0.4518', 0xd59d94, 0x7cbb07, 0xc9a350],
  ['0.1239', 0x96b62d, 0xef69a8, 0x54bd33],
  ['0.4097', 0x111581, 0x07bc9a, 0x0e5599],
  ['-0.0074', 0x8131d0, 0xe1349b, 0x8131d0],
  ['0.3117', 0x01d245, 0xe90794, 0x039ed9],
  ['0.1074', 0xb83aaf, 0x2bac47, 0x9938b7],
  ['0.6666', 0x64953b, 0x348b60, 0x368e47],
  ['1.0194', 0x3c973b, 0x97b079, 0x97b079],
  ['0.0141', 0xe4e91c, 0x24eae1, 0xdee91c],
  ['0.9268', 0x6373fb, 0x577ce4, 0x587be6],
  ['0.5089', 0x2c839b, 0xe6efcb, 0x71c683],
  ['0.3613', 0xf6f741, 0xc841d1, 0x41e989],
  ['0.2618', 0xccde2c, 0x233299, 0x46cc2a],
  ['0.5355', 0xaf1d59, 0xbfe8e7, 0x7d6ace],
  ['0.7017', 0xaa98ec, 0x300f20, 0x682b62],
  ['0.3487', 0xcb1851, 0x94e551, 0x532ad4],
  ['0.83', 0xec0288, 0x45d345, 0x3bd796],
  ['0.5', 0x00ff00, 0x00ff00, 0x00ff00],
  ['0.3', 0x000000, 0xffffff, 0x4d4d4d],
  ['0.25', 0xff0000, 0x0000ff, 0xffff00],
  ['0.999', 0xff00ff, 0x00ffff, 0x00feff],
];

describe('color functions', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const value = async (sql: string) => (await engine.rows(sql))[0][0];
  const failure = async (sql: string) => {
    const e = await engine.failure(sql);
    return [e.errorName, e.rawMessage];
  };

  it('decodes #rgb and the system color names, sending a color as Trino does (#rrggbb or the name)', async () => {
    const colors = ['#000', '#FFF', '#F00', '#0F0', '#00F', '#700', '#070', '#007', '#cde'];
    const sent = await engine.rows(`SELECT ${colors.map((c) => `color('${c}')`).join(', ')}`);
    expect(sent[0]).to.deep.equal(['#000000', '#ffffff', '#ff0000', '#00ff00', '#0000ff', '#770000', '#007700', '#000077', '#ccddee']);
    const names = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
    expect((await engine.rows(`SELECT ${names.map((n) => `color('${n.toUpperCase()}')`).join(', ')}`))[0]).to.deep.equal(names);
    expect(await value("SELECT rgb(255, 0, 0) = color('#f00')")).to.equal(true);
    expect(await value("SELECT rgb(0, 0, 255) = color('blue')")).to.equal(false);
    expect(await value('SELECT rgb(7, 8, 9)')).to.equal('#070809');
    expect(await value("SELECT typeof(color('red'))")).to.equal('color');
    expect(await value('SELECT CAST(NULL AS color)')).to.equal(null);
    expect(await value('SELECT color(NULL)')).to.equal(null);
  });

  it('renders text, numbers and booleans with ANSI escapes (TestColorFunctions)', async () => {
    expect(await value("SELECT render('hello', color('red'))")).to.equal(`${ESC}[38;5;1mhello${ESC}[0m`);
    expect(await value("SELECT render('hello', color('#f00'))")).to.equal(`${ESC}[38;5;196mhello${ESC}[0m`);
    expect(await value("SELECT render('hello', color('#0f0'))")).to.equal(`${ESC}[38;5;46mhello${ESC}[0m`);
    expect(await value("SELECT render('hello', color('#00f'))")).to.equal(`${ESC}[38;5;21mhello${ESC}[0m`);
    expect(await value("SELECT render(1234, color('red'))")).to.equal(`${ESC}[38;5;1m1234${ESC}[0m`);
    expect(await value("SELECT render(1234, color('#0f0'))")).to.equal(`${ESC}[38;5;46m1234${ESC}[0m`);
    expect(await value("SELECT render(1234.5678e0, color('red'))")).to.equal(`${ESC}[38;5;1m1234.5678${ESC}[0m`);
    expect(await value("SELECT render(1234.5678e0, color('#00f'))")).to.equal(`${ESC}[38;5;21m1234.5678${ESC}[0m`);
    // A real widens to double first: Java prints (double) 1234.5678f.
    expect(await value("SELECT render(REAL '1234.5678', color('red'))")).to.equal(`${ESC}[38;5;1m1234.5677490234375${ESC}[0m`);
    expect(await value('SELECT render(true)')).to.equal(`${ESC}[38;5;2m\u2713${ESC}[0m`);
    expect(await value('SELECT render(false)')).to.equal(`${ESC}[38;5;1m\u2717${ESC}[0m`);
    const types = await engine.rows(
      "SELECT typeof(render('abc', color('red'))), typeof(render(CAST('abc' AS varchar), color('red'))), typeof(render(1, color('red'))), typeof(render(1e0, color('red'))), typeof(render(true))",
    );
    expect(types[0]).to.deep.equal(['varchar(18)', 'varchar', 'varchar(35)', 'varchar(41)', 'varchar(16)']);
  });

  it('draws bars as Trino (TestColorFunctions, product test bar.result, the bars color.md describes)', async () => {
    expect(await value("SELECT bar(0.6, 5, color('#f0f'), color('#00f'))")).to.equal(bar([201, 165, 129], 2));
    const redToGreen = bar([196, 202, 208, 214, 226, 226, 154, 118, 82, 46]);
    expect(await value("SELECT bar(1, 10, color('#f00'), color('#0f0'))")).to.equal(redToGreen);
    expect((await engine.rows("SELECT bar(1, 10), bar(1, 10, rgb(255, 0, 0), color('#0f0'))"))[0]).to.deep.equal([redToGreen, redToGreen]);
    // "x of 25% and width of 40 ...: a 10-character red bar followed by 30 spaces"
    const quarter = (await value('SELECT bar(0.25, 40)')) as string;
    expect(quarter.split(BLOCK).length - 1).to.equal(10);
    expect(quarter.startsWith(`${ESC}[38;5;196m${BLOCK}`)).to.equal(true);
    expect(quarter.endsWith(`${ESC}[0m${' '.repeat(30)}`)).to.equal(true);
    // "x is 0.5, width is 80, low_color 0xFF0000, high_color 0x00FF00: a 40 character bar from red to yellow, padded with spaces"
    const half = (await value('SELECT bar(0.5, 80, rgb(255, 0, 0), rgb(0, 255, 0))')) as string;
    expect(half.split(BLOCK).length - 1).to.equal(40);
    expect(half.startsWith(`${ESC}[38;5;196m`)).to.equal(true);
    expect(half.endsWith(`${ESC}[38;5;226m${BLOCK}${ESC}[0m${' '.repeat(40)}`)).to.equal(true);
    // Outside [0, 1] the bar is empty or full; no width, no blocks.
    expect(await value('SELECT bar(-0.5, 3)')).to.equal(bar([], 3));
    expect(await value("SELECT bar(7, 2, color('#000'), color('#fff'))")).to.equal(bar([16, 231]));
    expect(await value('SELECT bar(0.5, 0)')).to.equal(bar([]));
    expect(await value('SELECT bar(nan(), 3)')).to.equal(bar([], 3));
  });

  it('interpolates between colors as TestColorFunctions expects', async () => {
    const cases: [string, string][] = [
      ["color(0, 0, 255, color('#000'), color('#fff'))", '#000000'],
      ["color(128, 0, 255, color('#000'), color('#fff'))", '#808080'],
      ["color(255, 0, 255, color('#000'), color('#fff'))", '#ffffff'],
      ['color(-1, 42, 52, rgb(255, 0, 0), rgb(255, 255, 0))', '#ff0000'],
      ['color(47, 42, 52, rgb(255, 0, 0), rgb(255, 255, 0))', '#ff8000'],
      ['color(142, 42, 52, rgb(255, 0, 0), rgb(255, 255, 0))', '#ffff00'],
      ["color(-42, color('#000'), color('#fff'))", '#000000'],
      ["color(0.0, color('#000'), color('#fff'))", '#000000'],
      ["color(0.5, color('#000'), color('#fff'))", '#808080'],
      ["color(1.0, color('#000'), color('#fff'))", '#ffffff'],
      ["color(42, color('#000'), color('#fff'))", '#ffffff'],
      ["color(-0e0, color('#000'), color('#fff'))", '#000000'],
    ];
    const row = await engine.rows(`SELECT ${cases.map(([sql]) => sql).join(', ')}`);
    expect(row[0]).to.deep.equal(cases.map(([, expected]) => expected));
  });

  it('interpolates in HSB space bit for bit as java.awt.Color does', async () => {
    // Each color through rgb(): color() reads only the short #rgb form.
    const rgbSql = JDK_INTERPOLATIONS.map(
      ([x, low, high]) =>
        `color(${x}e0, rgb(${low >> 16}, ${(low >> 8) & 255}, ${low & 255}), rgb(${high >> 16}, ${(high >> 8) & 255}, ${high & 255}))`,
    );
    const row = await engine.rows(`SELECT ${rgbSql.join(', ')}`);
    expect(row[0]).to.deep.equal(JDK_INTERPOLATIONS.map(([, , , expected]) => hex(expected)));
  });

  it('groups, compares and hashes colors as Trino, and refuses ORDER BY and casts', async () => {
    expect(
      await engine.rows(
        "SELECT c, count(*) FROM (VALUES color('red'), rgb(255, 0, 0), color('#f00'), color('RED')) t(c) GROUP BY c ORDER BY 2",
      ),
    ).to.deep.equal([
      ['red', 2n],
      ['#ff0000', 2n],
    ]);
    // Trino hashes a color as the int it holds: red is -2.
    expect(await value("SELECT checksum(color('red')) = checksum(-2)")).to.equal(true);
    expect(await value('SELECT checksum(rgb(1, 2, 3)) = checksum(66051)')).to.equal(true);
    expect(await failure("SELECT c FROM (VALUES color('red')) t(c) ORDER BY c")).to.deep.equal([
      'TYPE_MISMATCH',
      'color is not orderable, and therefore cannot be used in ORDER BY',
    ]);
    expect(await failure("SELECT CAST(color('red') AS varchar)")).to.deep.equal(['TYPE_MISMATCH', 'Cannot cast color to varchar']);
    expect(await failure("SELECT CAST('red' AS color)")).to.deep.equal(['TYPE_MISMATCH', 'Cannot cast varchar(3) to color']);
    expect((await failure("SELECT color('red') < color('blue')"))[0]).to.equal('TYPE_MISMATCH');
  });

  it("lists the functions in SHOW FUNCTIONS with Trino's signatures and (empty) descriptions", async () => {
    expect(await engine.rows("SHOW FUNCTIONS LIKE 'render'")).to.deep.equal([
      ['render', 'varchar(16)', 'boolean', 'scalar', true, ''],
      ['render', 'varchar(35)', 'bigint, color', 'scalar', true, ''],
      ['render', 'varchar(41)', 'double, color', 'scalar', true, ''],
      ['render', 'varchar(y)', 'varchar(x), color', 'scalar', true, ''],
    ]);
    expect(await engine.rows("SHOW FUNCTIONS LIKE 'rgb'")).to.deep.equal([['rgb', 'color', 'bigint, bigint, bigint', 'scalar', true, '']]);
    expect((await engine.rows("SHOW FUNCTIONS LIKE 'bar'")).map((r) => r[2])).to.deep.equal([
      'double, bigint',
      'double, bigint, color, color',
    ]);
  });

  it("fails bad input with Trino's errors", async () => {
    expect(await failure("SELECT color('nope')")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', "Invalid color: 'nope'"]);
    expect(await failure("SELECT color('#12')")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', "Invalid color: '#12'"]);
    expect(await failure("SELECT color('#ggg')")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', "Invalid color: '#ggg'"]);
    expect(await failure("SELECT color('#ff0000')")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', "Invalid color: '#ff0000'"]);
    expect(await failure('SELECT rgb(256, 0, 0)')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'red must be between 0 and 255']);
    expect(await failure('SELECT rgb(0, -1, 0)')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'green must be between 0 and 255']);
    expect(await failure('SELECT rgb(0, 0, 1000)')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'blue must be between 0 and 255']);
    expect(await failure("SELECT color(0.5, color('red'), color('#fff'))")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'lowColor not a valid RGB color',
    ]);
    expect(await failure("SELECT color(0.5, color('#fff'), color('blue'))")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'highColor not a valid RGB color',
    ]);
    expect(await failure("SELECT bar(0.5, 4, color('red'), color('#fff'))")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'color is not a valid rgb value',
    ]);
    // A bar longer than the longest JavaScript string fails cleanly instead of running out of memory.
    expect((await failure('SELECT bar(0.5, 10000000000000)'))[0]).to.equal('INVALID_FUNCTION_ARGUMENT');
  });
});
