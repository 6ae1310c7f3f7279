// The output formats of `engine sql` against what Trino's CLI prints. Where a case comes from Trino's
// own printer tests (client/trino-cli/src/test/java/io/trino/cli/Test*Printer.java), the rows and the
// expected text are that test's; doubles and reals are compared with OpenJDK 25's Double.toString and
// Float.toString. Rows go through OutputHandler as the CLI sends them: all in one complete batch here,
// unless a test says otherwise.

import { expect } from 'chai';
import { consoleWidth } from '../../src/cli/output/console-width.js';
import { MAX_BUFFER_MILLIS, MAX_BUFFERED_ROWS, OutputHandler } from '../../src/cli/output/output-handler.js';
import { createPrinter, OUTPUT_FORMATS, type OutputFormat } from '../../src/cli/output/printer.js';
import { TextBuffer } from '../../src/cli/output/sink.js';
import type { ColumnJson } from '../../src/server/statement-json.js';
import type { TypeSignature } from '../../src/types/types.js';

const type = (rawType: string, ...args: TypeSignature[]): TypeSignature => ({
  rawType,
  arguments: args.map((value) => ({ kind: 'TYPE', value })),
});
const VARCHAR = type('varchar');
const BIGINT = type('bigint');
const VARBINARY = type('varbinary');
const column = (name: string, signature: TypeSignature): ColumnJson => ({ name, type: signature.rawType, typeSignature: signature });
/** varbinary as the server sends it: base64 of the bytes. */
const bytes = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function print(format: OutputFormat, columns: ColumnJson[], rows: unknown[][], terminalWidth = Infinity): Promise<string> {
  const buffer = new TextBuffer();
  const handler = new OutputHandler(createPrinter(format, columns, buffer, terminalWidth));
  await handler.add(rows);
  await handler.close();
  return buffer.text;
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** Trino's printer tests' columns and rows: text over several lines, nulls, and 4.5 in a bigint column. */
const COLUMNS = [column('first', VARCHAR), column('last', VARCHAR), column('quantity', BIGINT)];
const ROWS = [
  ['hello', 'world', 123],
  ['a', null, 4.5],
  ['b', null, null],
  ['some long\ntext that\ndoes not\nfit on\none line', 'more\ntext', 4567],
  ['bye', 'done', -15],
];
const BINARY_COLUMNS = [column('first', VARCHAR), column('binary', VARBINARY), column('last', VARCHAR)];
const BINARY_ROWS = [
  ['hello', bytes('hello'), 'world'],
  ['a', bytes('some long text that is more than 16 bytes'), 'b'],
  ['cat', bytes(''), 'dog'],
];
const WIDE_COLUMNS = [column('go\u7f51', VARCHAR), column('last', VARCHAR), column('quantity\u7f51', BIGINT)];
const WIDE_ROWS = [
  ['hello', 'wide\u7f51', 123],
  ['some long\ntext \u7f51\ndoes not\u7f51\nfit', 'more\ntext', 4567],
  ['bye', 'done', -15],
];

describe('engine sql output formats', () => {
  it("has Trino's formats", () => {
    expect(OUTPUT_FORMATS).to.deep.equal([
      'AUTO',
      'ALIGNED',
      'VERTICAL',
      'TSV',
      'TSV_HEADER',
      'CSV',
      'CSV_HEADER',
      'CSV_UNQUOTED',
      'CSV_HEADER_UNQUOTED',
      'JSON',
      'MARKDOWN',
      'NULL',
    ]);
  });

  describe('ALIGNED', () => {
    it('marks the lines a value continues on with +', async () => {
      expect(await print('ALIGNED', COLUMNS, ROWS)).to.equal(
        lines(
          '   first   | last  | quantity ',
          '-----------+-------+----------',
          ' hello     | world |      123 ',
          ' a         | NULL  |      4.5 ',
          ' b         | NULL  |     NULL ',
          ' some long+| more +|     4567 ',
          ' text that+| text  |          ',
          ' does not +|       |          ',
          ' fit on   +|       |          ',
          ' one line  |       |          ',
          ' bye       | done  |      -15 ',
          '(5 rows)',
        ),
      );
    });

    it('needs no marks for a lone row', async () => {
      const columns = [column('first', VARCHAR), column('last', VARCHAR)];
      expect(await print('ALIGNED', columns, [['a long line\nwithout wrapping', 'text']])).to.equal(
        lines(
          '      first       | last ',
          '------------------+------',
          ' a long line      | text ',
          ' without wrapping |      ',
          '(1 row)',
        ),
      );
      expect(await print('ALIGNED', columns, [])).to.equal(lines(' first | last ', '-------+------', '(0 rows)'));
    });

    it('prints binary as hex, 16 bytes to a line, also inside arrays and maps', async () => {
      expect(await print('ALIGNED', BINARY_COLUMNS, BINARY_ROWS)).to.equal(
        lines(
          ' first |                     binary                      | last  ',
          '-------+-------------------------------------------------+-------',
          ' hello | 68 65 6c 6c 6f                                  | world ',
          ' a     | 73 6f 6d 65 20 6c 6f 6e 67 20 74 65 78 74 20 74+| b     ',
          '       | 68 61 74 20 69 73 20 6d 6f 72 65 20 74 68 61 6e+|       ',
          '       | 20 31 36 20 62 79 74 65 73                      |       ',
          ' cat   |                                                 | dog   ',
          '(3 rows)',
        ),
      );
      expect(await print('ALIGNED', [column('list', type('array', VARBINARY))], [[[bytes('hello')]]])).to.equal(
        lines('       list       ', '------------------', ' [68 65 6c 6c 6f] ', '(1 row)'),
      );
      // A java.util.HashMap's order: "key2" before "key".
      expect(
        await print('ALIGNED', [column('map', type('map', VARCHAR, VARBINARY))], [[{ key: bytes('hello'), key2: bytes('hello') }]]),
      ).to.equal(
        lines(
          '                    map                    ',
          '-------------------------------------------',
          ' {key2=68 65 6c 6c 6f, key=68 65 6c 6c 6f} ',
          '(1 row)',
        ),
      );
      expect(await print('ALIGNED', [column('map', type('map', VARBINARY, VARCHAR))], [[{ [bytes('hello')]: 'world' }]])).to.equal(
        lines('          map           ', '------------------------', ' {68 65 6c 6c 6f=world} ', '(1 row)'),
      );
    });

    it('counts wide characters as two columns', async () => {
      expect(await print('ALIGNED', WIDE_COLUMNS, WIDE_ROWS)).to.equal(
        lines(
          '    go\u7f51    |  last  | quantity\u7f51 ',
          '------------+--------+------------',
          ' hello      | wide\u7f51 |        123 ',
          ' some long +| more  +|       4567 ',
          ' text \u7f51   +| text   |            ',
          ' does not\u7f51+|        |            ',
          ' fit        |        |            ',
          ' bye        | done   |        -15 ',
          '(3 rows)',
        ),
      );
    });

    it('sizes each batch of 10,000 rows by itself, with the header once, and marks continuations in a batch that is not the last', async () => {
      const buffer = new TextBuffer();
      const handler = new OutputHandler(createPrinter('ALIGNED', [column('s', VARCHAR)], buffer, Infinity));
      await handler.add([['x\ny'], ...Array.from({ length: MAX_BUFFERED_ROWS - 1 }, () => ['a'])]);
      await handler.add([['a longer one']]);
      await handler.close();
      const printed = buffer.text.split('\n');
      expect(printed.slice(0, 4)).to.deep.equal([' s ', '---', ' x+', ' y ']);
      expect(printed.slice(-3)).to.deep.equal([' a longer one ', '(10001 rows)', '']);
    });
  });

  describe('VERTICAL', () => {
    it('prints a record per row', async () => {
      expect(await print('VERTICAL', COLUMNS, [ROWS[0]!, ROWS[1]!, ROWS[3]!, ROWS[4]!])).to.equal(
        lines(
          '-[ RECORD 1 ]-------',
          'first    | hello',
          'last     | world',
          'quantity | 123',
          '-[ RECORD 2 ]-------',
          'first    | a',
          'last     | NULL',
          'quantity | 4.5',
          '-[ RECORD 3 ]-------',
          'first    | some long',
          '         | text that',
          '         | does not',
          '         | fit on',
          '         | one line',
          'last     | more',
          '         | text',
          'quantity | 4567',
          '-[ RECORD 4 ]-------',
          'first    | bye',
          'last     | done',
          'quantity | -15',
        ),
      );
    });

    it('fits the record header to short, long and wide names', async () => {
      expect(await print('VERTICAL', [column('a', VARCHAR)], [['x']])).to.equal(lines('-[ RECORD 1 ]', 'a | x'));
      expect(await print('VERTICAL', [column('shippriority', VARCHAR)], [['hello']])).to.equal(
        lines('-[ RECORD 1 ]+------', 'shippriority | hello'),
      );
      expect(await print('VERTICAL', [column('order_priority', VARCHAR)], [['hello']])).to.equal(
        lines('-[ RECORD 1 ]--+------', 'order_priority | hello'),
      );
      expect(await print('VERTICAL', [column('order_priority\u7f51', VARCHAR)], [['hello']])).to.equal(
        lines('-[ RECORD 1 ]----+------', 'order_priority\u7f51 | hello'),
      );
      expect(await print('VERTICAL', [column('name', VARCHAR)], [['hello\u7f51 bye']])).to.equal(
        lines('-[ RECORD 1 ]-----', 'name | hello\u7f51 bye'),
      );
      expect(await print('VERTICAL', [column('none', VARCHAR)], [])).to.equal('(no rows)\n');
    });

    it('prints binary as hex, 16 bytes to a line', async () => {
      expect(await print('VERTICAL', BINARY_COLUMNS, BINARY_ROWS)).to.equal(
        lines(
          '-[ RECORD 1 ]-------------------------------------------',
          'first  | hello',
          'binary | 68 65 6c 6c 6f',
          'last   | world',
          '-[ RECORD 2 ]-------------------------------------------',
          'first  | a',
          'binary | 73 6f 6d 65 20 6c 6f 6e 67 20 74 65 78 74 20 74',
          '       | 68 61 74 20 69 73 20 6d 6f 72 65 20 74 68 61 6e',
          '       | 20 31 36 20 62 79 74 65 73',
          'last   | b',
          '-[ RECORD 3 ]-------------------------------------------',
          'first  | cat',
          'binary | ',
          'last   | dog',
        ),
      );
    });
  });

  describe('AUTO', () => {
    const rows = [ROWS[0]!, ROWS[1]!, ROWS[4]!];

    it('prints ALIGNED when it fits the terminal', async () => {
      expect(await print('AUTO', COLUMNS, rows, 100)).to.equal(
        lines(
          ' first | last  | quantity ',
          '-------+-------+----------',
          ' hello | world |      123 ',
          ' a     | NULL  |      4.5 ',
          ' bye   | done  |      -15 ',
          '(3 rows)',
        ),
      );
    });

    it('prints VERTICAL when ALIGNED is wider than the terminal', async () => {
      expect(await print('AUTO', COLUMNS, rows, 10)).to.equal(
        lines(
          '-[ RECORD 1 ]---',
          'first    | hello',
          'last     | world',
          'quantity | 123',
          '-[ RECORD 2 ]---',
          'first    | a',
          'last     | NULL',
          'quantity | 4.5',
          '-[ RECORD 3 ]---',
          'first    | bye',
          'last     | done',
          'quantity | -15',
        ),
      );
    });
  });

  describe('CSV', () => {
    const two = [ROWS[0]!, ROWS[1]!];

    it('quotes every value, with a header or without', async () => {
      expect(await print('CSV_HEADER', COLUMNS, [ROWS[0]!, ROWS[1]!, ROWS[3]!, ROWS[4]!])).to.equal(
        lines(
          '"first","last","quantity"',
          '"hello","world","123"',
          '"a","","4.5"',
          '"some long\ntext that\ndoes not\nfit on\none line","more\ntext","4567"',
          '"bye","done","-15"',
        ),
      );
      expect(await print('CSV_HEADER', [column('first', VARCHAR), column('last', VARCHAR)], [])).to.equal(lines('"first","last"'));
      expect(await print('CSV', COLUMNS, two)).to.equal(lines('"hello","world","123"', '"a","","4.5"'));
      expect(await print('CSV', COLUMNS, [['say "hi"', null, 1]])).to.equal(lines('"say ""hi""","","1"'));
    });

    it('writes values as they are when unquoted', async () => {
      expect(await print('CSV_HEADER_UNQUOTED', COLUMNS, [...two, ['"quote"', null, 2137]])).to.equal(
        lines('first,last,quantity', 'hello,world,123', 'a,,4.5', '"quote",,2137'),
      );
      expect(await print('CSV_HEADER_UNQUOTED', [column('first', VARCHAR), column('last', VARCHAR)], [])).to.equal(lines('first,last'));
      expect(await print('CSV_UNQUOTED', COLUMNS, two)).to.equal(lines('hello,world,123', 'a,,4.5'));
      expect(await print('CSV_UNQUOTED', COLUMNS, [])).to.equal('');
    });

    it('prints binary as one line of hex, also inside maps and arrays', async () => {
      expect(
        await print(
          'CSV',
          [column('first', VARBINARY), column('last', VARCHAR), column('quantity', BIGINT)],
          [[bytes('hello'), null, 123]],
        ),
      ).to.equal(lines('"68 65 6c 6c 6f","","123"'));
      expect(
        await print(
          'CSV_HEADER',
          [column('map', type('map', VARCHAR, VARBINARY)), column('value', VARCHAR)],
          [[{ key: bytes('value') }, 'value']],
        ),
      ).to.equal(lines('"map","value"', '"{key=76 61 6c 75 65}","value"'));
      expect(
        await print('CSV_HEADER', [column('list', type('array', VARBINARY)), column('value', VARCHAR)], [[[bytes('value')], 'value']]),
      ).to.equal(lines('"list","value"', '"[76 61 6c 75 65]","value"'));
    });
  });

  describe('TSV', () => {
    it('escapes tabs, line breaks, NUL, backspace, form feed and backslashes', async () => {
      expect(
        await print('TSV_HEADER', COLUMNS, [
          ROWS[0]!,
          ROWS[1]!,
          ['some long\ntext\tdone', 'more\ntext', 4567],
          ROWS[4]!,
          ['oops\0a\nb\rc\bd\fe\tf\\g\x01done', 'escape', 9],
        ]),
      ).to.equal(
        lines(
          'first\tlast\tquantity',
          'hello\tworld\t123',
          'a\t\t4.5',
          'some long\\ntext\\tdone\tmore\\ntext\t4567',
          'bye\tdone\t-15',
          'oops\\0a\\nb\\rc\\bd\\fe\\tf\\\\g\x01done\tescape\t9',
        ),
      );
      expect(await print('TSV_HEADER', [column('first', VARCHAR), column('last', VARCHAR)], [])).to.equal(lines('first\tlast'));
      expect(await print('TSV', COLUMNS, [ROWS[0]!, ROWS[1]!])).to.equal(lines('hello\tworld\t123', 'a\t\t4.5'));
      expect(
        await print(
          'TSV',
          [column('first', VARBINARY), column('last', VARCHAR), column('quantity', BIGINT)],
          [[bytes('hello'), null, 123]],
        ),
      ).to.equal(lines('68 65 6c 6c 6f\t\t123'));
    });
  });

  describe('JSON', () => {
    it('writes an object per row, binary as hex', async () => {
      expect(await print('JSON', COLUMNS, [ROWS[0]!, ROWS[1]!, ['some long\ntext\tdone', 'more\ntext', 4567], ROWS[4]!])).to.equal(
        lines(
          '{"first":"hello","last":"world","quantity":123}',
          '{"first":"a","last":null,"quantity":4.5}',
          '{"first":"some long\\ntext\\tdone","last":"more\\ntext","quantity":4567}',
          '{"first":"bye","last":"done","quantity":-15}',
        ),
      );
      expect(await print('JSON', [column('first', VARCHAR), column('last', VARCHAR)], [])).to.equal('');
      expect(
        await print(
          'JSON',
          [column('first', VARBINARY), column('last', VARCHAR), column('quantity', BIGINT)],
          [[bytes('hello'), null, 123]],
        ),
      ).to.equal(lines('{"first":"68 65 6c 6c 6f","last":null,"quantity":123}'));
    });

    it('keeps the columns in their order and every one of them, whatever their names', async () => {
      // Before: an object built from the names put "2" and "1" first and kept one of two "a" columns.
      expect(
        await print(
          'JSON',
          [column('b', BIGINT), column('2', BIGINT), column('a', BIGINT), column('a', BIGINT), column('1', BIGINT)],
          [[1, 2, 3, 4, 5]],
        ),
      ).to.equal(lines('{"b":1,"2":2,"a":3,"a":4,"1":5}'));
    });
  });

  describe('MARKDOWN', () => {
    it('escapes Markdown, turns line breaks into <br> and right-aligns numbers', async () => {
      const rows = [...ROWS.slice(0, 4), ['bye | not **& <a>**', 'done', -15]];
      expect(await print('MARKDOWN', COLUMNS, rows)).to.equal(
        lines(
          '| first                                                    | last         | quantity |',
          '| -------------------------------------------------------- | ------------ | --------:|',
          '| hello                                                    | world        |      123 |',
          '| a                                                        | NULL         |      4.5 |',
          '| b                                                        | NULL         |     NULL |',
          '| some long<br>text that<br>does not<br>fit on<br>one line | more<br>text |     4567 |',
          '| bye \\| not \\*\\*& \\<a\\>\\*\\*                               | done         |      -15 |',
        ),
      );
      expect(
        await print('MARKDOWN', [column('first', VARCHAR), column('last', VARCHAR)], [['a long line\nwithout wrapping', 'text']]),
      ).to.equal(
        lines(
          '| first                           | last |',
          '| ------------------------------- | ---- |',
          '| a long line<br>without wrapping | text |',
        ),
      );
    });

    it('prints binary and wide characters', async () => {
      expect(await print('MARKDOWN', BINARY_COLUMNS, BINARY_ROWS)).to.equal(
        lines(
          `| first | binary${' '.repeat(122)} | last  |`,
          `| ----- | ${'-'.repeat(128)} | ----- |`,
          `| hello | 68 65 6c 6c 6f${' '.repeat(114)} | world |`,
          '| a     | 73 6f 6d 65 20 6c 6f 6e 67 20 74 65 78 74 20 74<br>68 61 74 20 69 73 20 6d 6f 72 65 20 74 68 61 6e<br>20 31 36 20 62 79 74 65 73 | b     |',
          `| cat   | ${' '.repeat(128)} | dog   |`,
        ),
      );
      expect(await print('MARKDOWN', WIDE_COLUMNS, WIDE_ROWS)).to.equal(
        lines(
          '| go\u7f51                                      | last         | quantity\u7f51 |',
          '| ----------------------------------------- | ------------ | ----------:|',
          '| hello                                     | wide\u7f51       |        123 |',
          '| some long<br>text \u7f51<br>does not\u7f51<br>fit | more<br>text |       4567 |',
          '| bye                                       | done         |        -15 |',
        ),
      );
    });

    it('prints the header for an empty result, as the CLI hands every result a last batch', async () => {
      expect(await print('MARKDOWN', [column('first', VARCHAR), column('n', BIGINT)], [])).to.equal(
        lines('| first | n |', '| ----- | -:|'),
      );
    });
  });

  it('NULL prints nothing', async () => {
    expect(await print('NULL', COLUMNS, ROWS)).to.equal('');
  });

  describe('values', () => {
    const DOUBLE = type('double');
    const REAL = type('real');
    // As the engine's server sends them: JSON numbers (a bigint beyond 2^53), non-finite as text.
    const doubles = [1, 1e10, 1e-5, 0.001, 5e-324, 100000000000000000000n, 'NaN', '-Infinity', -0];
    const doubleTexts = ['1.0', '1.0E10', '1.0E-5', '0.001', '4.9E-324', '1.0E20', 'NaN', '-Infinity', '-0.0'];
    // Reals as the server sends them: the float's shortest digits as a JSON number.
    const reals = [0.1, 1e10, 2097152.2, 1.4e-45, 'Infinity'];
    const realTexts = ['0.1', '1.0E10', '2097152.2', '1.4E-45', 'Infinity'];

    it("prints doubles and reals as Java's Double.toString and Float.toString do", async () => {
      // Before: 1, 10000000000, 0.00001, 5e-324 (JavaScript's String).
      expect(
        await print(
          'CSV',
          [column('d', DOUBLE)],
          doubles.map((d) => [d]),
        ),
      ).to.equal(lines(...doubleTexts.map((t) => `"${t}"`)));
      expect(
        await print(
          'TSV',
          [column('r', REAL)],
          reals.map((r) => [r]),
        ),
      ).to.equal(lines(...realTexts));
      expect(await print('ALIGNED', [column('d', DOUBLE), column('r', REAL)], [[1, 0.1]])).to.equal(
        lines('  d  |  r  ', '-----+-----', ' 1.0 | 0.1 ', '(1 row)'),
      );
    });

    it('writes doubles in JSON as Java numbers, and NaN and the infinities as strings', async () => {
      expect(
        await print(
          'JSON',
          [column('d', DOUBLE)],
          doubles.map((d) => [d]),
        ),
      ).to.equal(
        lines(...['1.0', '1.0E10', '1.0E-5', '0.001', '4.9E-324', '1.0E20', '"NaN"', '"-Infinity"', '-0.0'].map((t) => `{"d":${t}}`)),
      );
      expect(await print('JSON', [column('r', REAL)], [[2097152.2]])).to.equal(lines('{"r":2097152.2}'));
    });

    it('prints nested values: nulls inside as NULL, doubles as Java, rows with their field names', async () => {
      const point = {
        rawType: 'row',
        arguments: [
          { kind: 'NAMED_TYPE' as const, value: { fieldName: { name: 'x' }, typeSignature: DOUBLE } },
          { kind: 'NAMED_TYPE' as const, value: { typeSignature: VARCHAR } },
        ],
      };
      const columns = [column('a', type('array', DOUBLE)), column('m', type('map', BIGINT, DOUBLE)), column('p', point)];
      const row = [[1, null, 2.5], { '1': 2, '2': null }, [1, 'y']];
      expect(await print('CSV', columns, [row])).to.equal(lines('"[1.0, NULL, 2.5]","{1=2.0, 2=NULL}","{x=1.0, y}"'));
      expect(await print('JSON', columns, [row])).to.equal(lines('{"a":[1.0,null,2.5],"m":{"1":2.0,"2":null},"p":[1.0,"y"]}'));
    });

    it('orders map entries as java.util.HashMap iterates them', async () => {
      // Trino's client decodes a map into a HashMap; the expected orders are OpenJDK 25's HashMap.toString of the same entries.
      const entries = Object.fromEntries(
        ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen'].map((k, i) => [
          k,
          i + 1,
        ]),
      );
      expect(await print('TSV', [column('m', type('map', VARCHAR, BIGINT))], [[entries]])).to.equal(
        lines('{nine=9, six=6, one=1, seven=7, two=2, three=3, thirteen=13, eight=8, four=4, twelve=12, eleven=11, ten=10, five=5}'),
      );
      expect(await print('TSV', [column('m', type('map', BIGINT, BIGINT))], [[{ '1': 2, '2': 3, '16': 1 }]])).to.equal(
        lines('{16=1, 1=2, 2=3}'),
      );
      expect(await print('TSV', [column('m', type('map', DOUBLE, BIGINT))], [[{ '1.5': 1, '-0.0': 2, '100.0': 3, '0.1': 4 }]])).to.equal(
        lines('{-0.0=2, 0.1=4, 1.5=1, 100.0=3}'),
      );
      // Nine keys in one bucket of a 16-bucket table: the table doubles rather than turning the bucket into a tree.
      const colliding = Object.fromEntries([0, 16, 32, 48, 64, 80, 96, 112, 128, 1].map((k, i) => [String(k), k === 1 ? 100 : i]));
      expect(await print('TSV', [column('m', type('map', type('integer'), type('integer')))], [[colliding]])).to.equal(
        lines('{0=0, 32=2, 64=4, 96=6, 128=8, 1=100, 16=1, 48=3, 80=5, 112=7}'),
      );
    });
  });

  describe('batches', () => {
    it('prints the rows gathered once 3 seconds have passed, and the rest at the end', async () => {
      let now = 0;
      const buffer = new TextBuffer();
      const handler = new OutputHandler(
        createPrinter('CSV', [column('n', BIGINT)], buffer, Infinity),
        () => {},
        () => now,
      );
      await handler.add([[1], [2]]);
      expect(buffer.text).to.equal('');
      now = MAX_BUFFER_MILLIS;
      await handler.add([]);
      expect(buffer.text).to.equal(lines('"1"', '"2"'));
      await handler.add([[3]]);
      await handler.close();
      expect(buffer.text).to.equal(lines('"1"', '"2"', '"3"'));
    });
  });

  describe('console width', () => {
    it("counts columns as Trino's CLI does", () => {
      expect(consoleWidth('abc')).to.equal(3);
      expect(consoleWidth('\u7f51\uff21')).to.equal(4); // CJK and fullwidth: two each
      expect(consoleWidth('e\u0301')).to.equal(1); // a combining accent takes none
      expect(consoleWidth('\x1b[31mred\x1b[0m')).to.equal(3); // colour codes take none
      expect(consoleWidth('a\tb')).to.equal(2); // nor do control characters
      expect(consoleWidth('\u{1f600}')).to.equal(2); // two UTF-16 units of one column each, as Java counts
    });
  });
});
