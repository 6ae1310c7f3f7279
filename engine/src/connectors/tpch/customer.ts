// customer: one row per customer key 1..150000 * SF.

import { BIGINT, MONEY, int64Column, paddedNames, sequenceColumn, varchar, varcharColumn } from './column-values.js';
import { drawAddresses, drawPhones } from './contact.js';
import { MARKET_SEGMENTS, NATIONS } from './distributions.js';
import { TextLength, drawInts, drawPicks, drawTextColumn } from './draws.js';
import { defineTable, once } from './table.js';
import { textPool } from './text-pool.js';

const ADDRESS_SEED = 881155353;
const NATION_SEED = 1489529863;
const PHONE_SEED = 1521138112;
const ACCOUNT_BALANCE_SEED = 298370230;
const MARKET_SEGMENT_SEED = 1140279430;
const COMMENT_SEED = 1335826707;
const COMMENT_LENGTH = new TextLength(73);
/** Cents. */
const ACCOUNT_BALANCE_MIN = -99999;
const ACCOUNT_BALANCE_MAX = 999999;

const NAME = varchar(25);
const ADDRESS = varchar(40);
const PHONE = varchar(15);
const MARKET_SEGMENT = varchar(10);
const COMMENT = varchar(117);

class CustomerRows {
  readonly rowCount: number;
  readonly nationKeys = once(() => drawInts(NATION_SEED, 1, this.start, this.rowCount, 0, NATIONS.size - 1));

  constructor(
    readonly start: number,
    end: number,
  ) {
    this.rowCount = end - start;
  }
}

export const CUSTOMER = defineTable<CustomerRows>({
  name: 'customer',
  unitCount: (scale) => scale.customers,
  range: (_scale, start, end) => new CustomerRows(start, end),
  columns: [
    { name: 'c_custkey', type: BIGINT, generate: (r) => sequenceColumn(r.start + 1, r.rowCount) },
    {
      name: 'c_name',
      type: NAME,
      generate: (r) => varcharColumn(NAME, paddedNames('Customer#', r.start + 1, r.rowCount, 9)),
    },
    { name: 'c_address', type: ADDRESS, generate: (r) => varcharColumn(ADDRESS, drawAddresses(ADDRESS_SEED, r.start, r.rowCount)) },
    { name: 'c_nationkey', type: BIGINT, generate: (r) => int64Column(BIGINT, r.nationKeys()) },
    { name: 'c_phone', type: PHONE, generate: (r) => varcharColumn(PHONE, drawPhones(PHONE_SEED, r.start, r.nationKeys())) },
    {
      name: 'c_acctbal',
      type: MONEY,
      generate: (r) => int64Column(MONEY, drawInts(ACCOUNT_BALANCE_SEED, 1, r.start, r.rowCount, ACCOUNT_BALANCE_MIN, ACCOUNT_BALANCE_MAX)),
    },
    {
      name: 'c_mktsegment',
      type: MARKET_SEGMENT,
      generate: (r) => varcharColumn(MARKET_SEGMENT, drawPicks(MARKET_SEGMENT_SEED, 1, r.start, r.rowCount, MARKET_SEGMENTS)),
    },
    {
      name: 'c_comment',
      type: COMMENT,
      generate: (r) => drawTextColumn(COMMENT, COMMENT_SEED, r.start, r.rowCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
