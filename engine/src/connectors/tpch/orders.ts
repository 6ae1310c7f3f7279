// orders: 1500000 * SF orders with sparse keys. An order's total price and status derive from its
// lines, so they draw the same line streams lineitem does.

import {
  BIGINT,
  DATE,
  INTEGER,
  MONEY,
  Int64Values,
  NumberNames,
  int32Column,
  paddedName,
  varchar,
  varcharColumn,
} from './column-values.js';
import { CURRENT_DATE } from './dates.js';
import { ORDER_PRIORITIES } from './distributions.js';
import { TextLength, drawKeys, drawPicks, drawTextColumn } from './draws.js';
import { OrderLines, orderKey } from './order-lines.js';
import { RandomStream64 } from './random64.js';
import type { Scale } from './scale.js';
import { defineTable } from './table.js';
import { textPool } from './text-pool.js';

const CUSTOMER_KEY_SEED = 851767375;
/** Every third customer places no orders: a key divisible by 3 moves to a neighbour. */
const CUSTOMER_MORTALITY = 3;
const PRIORITY_SEED = 591449447;
const CLERK_SEED = 1171034773;
const COMMENT_SEED = 276090261;
const COMMENT_LENGTH = new TextLength(49);

const STATUS = varchar(1);
const PRIORITY = varchar(15);
const CLERK = varchar(15);
const COMMENT = varchar(79);

class OrderRows extends OrderLines {
  get rowCount(): number {
    return this.orderCount;
  }
}

function orderKeys(r: OrderRows): Int64Values {
  const out = new Int64Values(r.orderCount);
  for (let i = 0; i < r.orderCount; i++) out.set(i, orderKey(r.start + 1 + i));
  return out;
}

function customerKeys(r: OrderRows): Int64Values {
  const customers = r.scale.customers;
  const drawn = r.scale.uses64BitKeys ? drawCustomerKeys64(r) : drawKeys(CUSTOMER_KEY_SEED, 1, r.start, r.orderCount, 1, customers);
  const out = new Int64Values(r.orderCount);
  for (let i = 0; i < r.orderCount; i++) {
    let key = drawn[i];
    let step = 1;
    while (key % CUSTOMER_MORTALITY === 0) {
      key = Math.min(key + step, customers);
      step = -step;
    }
    out.set(i, key);
  }
  return out;
}

function drawCustomerKeys64(r: OrderRows): Float64Array {
  const stream = new RandomStream64(CUSTOMER_KEY_SEED, 1, r.start);
  const keys = new Float64Array(r.orderCount);
  for (let i = 0; i < keys.length; i++) {
    keys[i] = stream.nextLong(1, r.scale.customers);
    stream.finishRow();
  }
  return keys;
}

/** F when every line has shipped, O when none has, P otherwise. */
function statuses(r: OrderRows): string[] {
  const shipDates = r.shipDates();
  const out = new Array<string>(r.orderCount);
  let line = 0;
  for (let o = 0; o < r.orderCount; o++) {
    const lines = r.lineCounts[o];
    let shipped = 0;
    for (let end = line + lines; line < end; line++) if (shipDates[line] <= CURRENT_DATE) shipped++;
    out[o] = shipped === lines ? 'F' : shipped > 0 ? 'P' : 'O';
  }
  return out;
}

/** The sum over the lines of the extended price less discount plus tax, each step truncated to cents. */
function totalPrices(r: OrderRows): Int64Values {
  const prices = r.extendedPrices();
  const discounts = r.discounts();
  const taxes = r.taxes();
  const out = new Int64Values(r.orderCount);
  let line = 0;
  for (let o = 0; o < r.orderCount; o++) {
    let total = 0;
    for (let end = line + r.lineCounts[o]; line < end; line++) {
      const discounted = Math.floor((prices[line] * (100 - discounts[line])) / 100);
      total += Math.floor((discounted * (100 + taxes[line])) / 100);
    }
    out.set(o, total);
  }
  return out;
}

/** Clerk names are cached up to this many clerks (a million at SF 1000). */
const CACHED_CLERKS = 1 << 20;
const CLERK_NAMES = new NumberNames((n) => paddedName('Clerk#', n, 9));

function clerks(r: OrderRows): string[] {
  const numbers = drawKeys(CLERK_SEED, 1, r.start, r.orderCount, 1, r.scale.clerks);
  if (r.scale.clerks <= CACHED_CLERKS) return CLERK_NAMES.map(numbers);
  return Array.from(numbers, (n) => paddedName('Clerk#', n, 9));
}

export const ORDERS = defineTable<OrderRows>({
  name: 'orders',
  unitCount: (scale) => scale.orders,
  range: (scale: Scale, start, end) => new OrderRows(scale, start, end),
  columns: [
    { name: 'o_orderkey', type: BIGINT, generate: (r) => orderKeys(r).column(BIGINT) },
    { name: 'o_custkey', type: BIGINT, generate: (r) => customerKeys(r).column(BIGINT) },
    { name: 'o_orderstatus', type: STATUS, generate: (r) => varcharColumn(STATUS, statuses(r)) },
    { name: 'o_totalprice', type: MONEY, generate: (r) => totalPrices(r).column(MONEY) },
    { name: 'o_orderdate', type: DATE, generate: (r) => int32Column(DATE, r.orderDates()) },
    {
      name: 'o_orderpriority',
      type: PRIORITY,
      generate: (r) => varcharColumn(PRIORITY, drawPicks(PRIORITY_SEED, 1, r.start, r.orderCount, ORDER_PRIORITIES)),
    },
    { name: 'o_clerk', type: CLERK, generate: (r) => varcharColumn(CLERK, clerks(r)) },
    { name: 'o_shippriority', type: INTEGER, generate: (r) => int32Column(INTEGER, new Int32Array(r.orderCount)) },
    {
      name: 'o_comment',
      type: COMMENT,
      generate: (r) => drawTextColumn(COMMENT, COMMENT_SEED, r.start, r.orderCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
