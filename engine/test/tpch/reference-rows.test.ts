// The `tiny` schema printed in dbgen's .tbl layout equals dbgen's own files byte for byte.

import { expect } from 'chai';
import { formatTblRows } from '../../src/connectors/tpch/tbl-format.js';
import { TPCH_TABLES } from '../../src/connectors/tpch/tables.js';
import { readTable, referenceTbl, table } from './helpers.js';

describe('tpch: tiny equals dbgen at scale factor 0.01', () => {
  for (const { name } of TPCH_TABLES) {
    it(`${name}.tbl`, async () => {
      const metadata = await table('tiny', name);
      const text = formatTblRows(
        await readTable(metadata),
        metadata.columns.map((c) => c.name),
      );
      const reference = referenceTbl(name);
      if (text !== reference) {
        const got = text.split('\n');
        const want = reference.split('\n');
        const line = got.findIndex((l, i) => l !== want[i]);
        expect(got[line], `first difference at line ${line + 1}`).to.equal(want[line]);
      }
      expect(text.length).to.equal(reference.length);
    });
  }
});
