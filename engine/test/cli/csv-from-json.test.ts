// The CLI's CSV from a response's JSON bytes: a statement response's `data` cut out of its bytes
// exactly, and rows of text and integral columns printed as Trino's CLI prints them (Trino's CSV rules:
// every value quoted with its quotes doubled, a null empty), or left to the general path (undefined)
// wherever the JSON holds something else.

import { expect } from 'chai';
import { splitDataMember } from '../../src/cli/client/response-data.js';
import { csvFromJsonRows, type PlainKind } from '../../src/cli/output/csv-from-json.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const csv = (json: string, kinds: PlainKind[], quoted = true): string | undefined => {
  const result = csvFromJsonRows(bytes(json), kinds, quoted);
  return result && `${result.rows}:${new TextDecoder().decode(result.bytes)}`;
};

describe('CLI CSV from JSON bytes', () => {
  describe('splitDataMember', () => {
    it('cuts data out of the middle, with the comma after it', () => {
      const split = splitDataMember(bytes('{"id":"q","columns":[{"name":"data"}],"data":[[1,"a]"],[2,null]],"stats":{"state":"RUNNING"}}'));
      expect(split.rest).to.equal('{"id":"q","columns":[{"name":"data"}],"stats":{"state":"RUNNING"}}');
      expect(new TextDecoder().decode(split.data)).to.equal('[[1,"a]"],[2,null]]');
    });

    it('cuts data at the end with the comma before it, and reads whitespace and escaped quotes', () => {
      const split = splitDataMember(bytes('{ "id" : "q\\"data\\":[" ,\n "data" : [ ["x\\\\"] ] }'));
      expect(JSON.parse(split.rest)).to.deep.equal({ id: 'q"data":[' });
      expect(new TextDecoder().decode(split.data)).to.equal('[ ["x\\\\"] ]');
    });

    it('leaves a response without rows, a null data and text that is not JSON whole', () => {
      for (const text of ['{"id":"q","stats":{}}', '{"id":"q","data":null}', '{"id":"q","data":[[1]', '[1]', '{"id":']) {
        expect(splitDataMember(bytes(text))).to.deep.equal({ rest: text, data: undefined });
      }
    });
  });

  describe('csvFromJsonRows', () => {
    it('prints integers, booleans, strings and nulls as Trino CLI CSV, quoted and unquoted', () => {
      const json = '[[9223372036854775807,-5,true,"say \\"hi\\"","é😀"],[0,null,false,"",null]]';
      const kinds: PlainKind[] = ['integral', 'integral', 'integral', 'text', 'text'];
      expect(csv(json, kinds)).to.equal('2:"9223372036854775807","-5","true","say ""hi""","é😀"\n"0","","false","",""\n');
      expect(csv(json, kinds, false)).to.equal('2:9223372036854775807,-5,true,say "hi",é😀\n0,,false,,\n');
    });

    it('decodes escapes: newline, tab, backslash, slash, \\u escapes and surrogate pairs', () => {
      expect(csv('[["a\\nb\\tc\\\\d\\/e\\u00e9\\ud83d\\ude00"]]', ['text'])).to.equal('1:"a\nb\tc\\d/eé😀"\n');
    });

    it('prints nothing for no rows', () => {
      expect(csv('[]', ['text'])).to.equal('0:');
    });

    it('leaves to the general path what does not print as its JSON text', () => {
      const cases: [string, PlainKind[]][] = [
        ['[[1.5]]', ['integral']],
        ['[[1e3]]', ['integral']],
        ['[[-0]]', ['integral']],
        ['[[007]]', ['integral']],
        ['[[12]]', ['text']],
        ['[["12"]]', ['integral']],
        ['[[[1,2]]]', ['text']],
        ['[[{"a":1}]]', ['text']],
        ['[[1,2]]', ['integral']],
        ['[[1]]', ['integral', 'integral']],
        ['[[1]] x', ['integral']],
        ['[[1],]', ['integral']],
        ['[["a\tb"]]', ['text']],
        ['[["a', ['text']],
        ['[[nul]]', ['text']],
      ];
      for (const [json, kinds] of cases) expect(csv(json, kinds), json).to.equal(undefined);
      // Bytes that are not UTF-8: the general path decodes them to U+FFFD.
      expect(csvFromJsonRows(new Uint8Array([0x5b, 0x5b, 0x22, 0xff, 0x22, 0x5d, 0x5d]), ['text'], true)).to.equal(undefined);
    });
  });
});
