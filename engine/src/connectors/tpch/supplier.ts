// supplier: one row per supplier key 1..10000 * SF. About one supplier in a thousand gets a Better
// Business Bureau remark ("Customer ... Complaints" / "Customer ... Recommends") written over its
// comment, which TPC-H Q16 looks for.

import { BIGINT, MONEY, int64Column, paddedNames, sequenceColumn, varchar, varcharColumn } from './column-values.js';
import { drawAddresses, drawPhones } from './contact.js';
import { NATIONS } from './distributions.js';
import { TextLength, drawIntAt, drawInts, drawTexts } from './draws.js';
import { defineTable, once } from './table.js';
import { textPool } from './text-pool.js';

const ADDRESS_SEED = 706178559;
const NATION_SEED = 110356601;
const PHONE_SEED = 884434366;
const ACCOUNT_BALANCE_SEED = 962338209;
const COMMENT_SEED = 1341315363;
const COMMENT_LENGTH = new TextLength(63);
/** Cents. */
const ACCOUNT_BALANCE_MIN = -99999;
const ACCOUNT_BALANCE_MAX = 999999;

/** The remark: a draw in 1..10000 of at most 10 selects the supplier. */
const REMARK_SEED = 202794285;
const REMARK_SCALE = 10000;
const REMARK_PER_SCALE = 10;
/** Then: the gap between the two words, the position of the first, and which remark (< 50: complaint). */
const REMARK_GAP_SEED = 263032577;
const REMARK_OFFSET_SEED = 715851524;
const REMARK_KIND_SEED = 753643799;
const REMARK_COMPLAINT_PERCENT = 50;
const REMARK_SUBJECT = 'Customer ';
const REMARK_COMPLAINT = 'Complaints';
const REMARK_RECOMMENDATION = 'Recommends';
const REMARK_LENGTH = REMARK_SUBJECT.length + REMARK_COMPLAINT.length;

const NAME = varchar(25);
const ADDRESS = varchar(40);
const PHONE = varchar(15);
const COMMENT = varchar(101);

class SupplierRows {
  readonly rowCount: number;
  readonly nationKeys = once(() => drawInts(NATION_SEED, 1, this.start, this.rowCount, 0, NATIONS.size - 1));

  constructor(
    readonly start: number,
    end: number,
  ) {
    this.rowCount = end - start;
  }
}

function comments(r: SupplierRows): string[] {
  const texts = drawTexts(COMMENT_SEED, r.start, r.rowCount, COMMENT_LENGTH, textPool());
  const remarks = drawInts(REMARK_SEED, 1, r.start, r.rowCount, 1, REMARK_SCALE);
  for (let i = 0; i < r.rowCount; i++) {
    if (remarks[i] > REMARK_PER_SCALE) continue;
    const row = r.start + i;
    const text = texts[i];
    const gap = drawIntAt(REMARK_GAP_SEED, 1, row, 0, text.length - REMARK_LENGTH);
    const offset = drawIntAt(REMARK_OFFSET_SEED, 1, row, 0, text.length - (REMARK_LENGTH + gap));
    const kind = drawIntAt(REMARK_KIND_SEED, 1, row, 0, 100) < REMARK_COMPLAINT_PERCENT ? REMARK_COMPLAINT : REMARK_RECOMMENDATION;
    const kindAt = offset + REMARK_SUBJECT.length + gap;
    texts[i] =
      text.substring(0, offset) +
      REMARK_SUBJECT +
      text.substring(offset + REMARK_SUBJECT.length, kindAt) +
      kind +
      text.substring(kindAt + kind.length);
  }
  return texts;
}

export const SUPPLIER = defineTable<SupplierRows>({
  name: 'supplier',
  unitCount: (scale) => scale.suppliers,
  range: (_scale, start, end) => new SupplierRows(start, end),
  columns: [
    { name: 's_suppkey', type: BIGINT, generate: (r) => sequenceColumn(r.start + 1, r.rowCount) },
    {
      name: 's_name',
      type: NAME,
      generate: (r) => varcharColumn(NAME, paddedNames('Supplier#', r.start + 1, r.rowCount, 9)),
    },
    { name: 's_address', type: ADDRESS, generate: (r) => varcharColumn(ADDRESS, drawAddresses(ADDRESS_SEED, r.start, r.rowCount)) },
    { name: 's_nationkey', type: BIGINT, generate: (r) => int64Column(BIGINT, r.nationKeys()) },
    { name: 's_phone', type: PHONE, generate: (r) => varcharColumn(PHONE, drawPhones(PHONE_SEED, r.start, r.nationKeys())) },
    {
      name: 's_acctbal',
      type: MONEY,
      generate: (r) => int64Column(MONEY, drawInts(ACCOUNT_BALANCE_SEED, 1, r.start, r.rowCount, ACCOUNT_BALANCE_MIN, ACCOUNT_BALANCE_MAX)),
    },
    { name: 's_comment', type: COMMENT, generate: (r) => varcharColumn(COMMENT, comments(r)) },
  ],
});
