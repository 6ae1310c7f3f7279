// part: one row per part key 1..200000 * SF.

import { BIGINT, INTEGER, MONEY, Int64Values, NumberNames, int32Column, sequenceColumn, varchar, varcharColumn } from './column-values.js';
import { PART_COLORS, PART_CONTAINERS, PART_TYPES } from './distributions.js';
import { TextLength, drawInts, drawPicks, drawTextColumn } from './draws.js';
import { MODULUS, jumpFactor, mulMod, nextSeed } from './random.js';
import { defineTable, once } from './table.js';
import { textPool } from './text-pool.js';

/** p_name: five distinct colors, the first five of a random permutation of the 92 (one draw per color). */
const NAME_SEED = 709314158;
const NAME_WORDS = 5;
const MANUFACTURER_SEED = 1;
const BRAND_SEED = 46831694;
const TYPE_SEED = 1841581359;
const SIZE_SEED = 1193163244;
const CONTAINER_SEED = 727633698;
const COMMENT_SEED = 804159733;
const COMMENT_LENGTH = new TextLength(14);

const MANUFACTURER_NAMES = new NumberNames((m) => 'Manufacturer#' + m);
/** Brand#MB: the manufacturer, then a draw 1..5. */
const BRAND_NAMES = new NumberNames((b) => 'Brand#' + b);

const NAME = varchar(55);
const MANUFACTURER = varchar(25);
const BRAND = varchar(10);
const TYPE = varchar(25);
const CONTAINER = varchar(10);
const COMMENT = varchar(23);

/** p_retailprice in cents, from the key alone (lineitem prices use it too). */
export function partRetailPrice(partKey: number): number {
  return 90000 + (Math.floor(partKey / 10) % 20001) + (partKey % 1000) * 100;
}

class PartRows {
  readonly rowCount: number;
  readonly manufacturers = once(() => drawInts(MANUFACTURER_SEED, 1, this.start, this.rowCount, 1, 5));

  constructor(
    readonly start: number,
    end: number,
  ) {
    this.rowCount = end - start;
  }
}

function names(r: PartRows): string[] {
  const colors = PART_COLORS.values;
  const usage = colors.length;
  const permutation = new Int32Array(usage);
  const out = new Array<string>(r.rowCount);
  const rowJump = jumpFactor(usage);
  let rowSeed = mulMod(NAME_SEED, jumpFactor(usage * r.start));
  const swaps = new Int32Array(NAME_WORDS);
  for (let i = 0; i < usage; i++) permutation[i] = i;
  for (let row = 0; row < r.rowCount; row++) {
    let seed = rowSeed;
    let name = '';
    for (let position = 0; position < NAME_WORDS; position++) {
      seed = nextSeed(seed);
      const swap = position + Math.floor((seed / MODULUS) * (usage - position));
      const chosen = permutation[swap];
      permutation[swap] = permutation[position];
      permutation[position] = chosen;
      swaps[position] = swap;
      name += position === 0 ? colors[chosen] : ' ' + colors[chosen];
    }
    // Undo the swaps, last first: every row starts from the identity permutation.
    for (let position = NAME_WORDS - 1; position >= 0; position--) {
      const swap = swaps[position];
      const moved = permutation[position];
      permutation[position] = permutation[swap];
      permutation[swap] = moved;
    }
    out[row] = name;
    rowSeed = mulMod(rowSeed, rowJump);
  }
  return out;
}

function retailPrices(r: PartRows): Int64Values {
  const out = new Int64Values(r.rowCount);
  for (let i = 0; i < r.rowCount; i++) out.set(i, partRetailPrice(r.start + 1 + i));
  return out;
}

export const PART = defineTable<PartRows>({
  name: 'part',
  unitCount: (scale) => scale.parts,
  range: (_scale, start, end) => new PartRows(start, end),
  columns: [
    { name: 'p_partkey', type: BIGINT, generate: (r) => sequenceColumn(r.start + 1, r.rowCount) },
    { name: 'p_name', type: NAME, generate: (r) => varcharColumn(NAME, names(r)) },
    {
      name: 'p_mfgr',
      type: MANUFACTURER,
      generate: (r) => varcharColumn(MANUFACTURER, MANUFACTURER_NAMES.map(r.manufacturers())),
    },
    {
      name: 'p_brand',
      type: BRAND,
      generate: (r) => {
        const brands = drawInts(BRAND_SEED, 1, r.start, r.rowCount, 1, 5);
        const manufacturers = r.manufacturers();
        for (let i = 0; i < brands.length; i++) brands[i] += manufacturers[i] * 10;
        return varcharColumn(BRAND, BRAND_NAMES.map(brands));
      },
    },
    { name: 'p_type', type: TYPE, generate: (r) => varcharColumn(TYPE, drawPicks(TYPE_SEED, 1, r.start, r.rowCount, PART_TYPES)) },
    { name: 'p_size', type: INTEGER, generate: (r) => int32Column(INTEGER, drawInts(SIZE_SEED, 1, r.start, r.rowCount, 1, 50)) },
    {
      name: 'p_container',
      type: CONTAINER,
      generate: (r) => varcharColumn(CONTAINER, drawPicks(CONTAINER_SEED, 1, r.start, r.rowCount, PART_CONTAINERS)),
    },
    { name: 'p_retailprice', type: MONEY, generate: (r) => retailPrices(r).column(MONEY) },
    {
      name: 'p_comment',
      type: COMMENT,
      generate: (r) => drawTextColumn(COMMENT, COMMENT_SEED, r.start, r.rowCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
