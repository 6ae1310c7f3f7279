// Decodes the two column chunks of a map column (MapColumn in parquet-schema.ts) into a map column:
// each chunk is a one-level list over the map's levels (list-chunk-decoder.ts), the keys' and the
// values'; the two must agree on every row's NULL and entry count (else the file is corrupt), and
// then share the offsets, as Arrow's Map does. A NULL key is refused: a map cannot hold one.

import type { Column } from '../../../../columnar/page.js';
import { listElements, listOffsets } from '../../../../columnar/list-column.js';
import type { ColumnMetaData } from './file-metadata.js';
import type { FetchedBytes } from './fetched-bytes.js';
import { ListChunkDecoder } from './list-chunk-decoder.js';
import { ParquetDataError } from './parquet-errors.js';
import type { MapColumn } from './parquet-schema.js';

export function decodeMapChunks(
  column: MapColumn,
  keyMeta: ColumnMetaData,
  valueMeta: ColumnMetaData,
  bytes: FetchedBytes,
  rowCount: number,
): Column {
  const keys = new ListChunkDecoder(column.keys, keyMeta).decode(bytes, rowCount);
  const values = new ListChunkDecoder(column.values, valueMeta).decode(bytes, rowCount);
  const offsets = listOffsets(keys);
  const valueOffsets = listOffsets(values);
  for (let i = 0; i <= rowCount; i++) {
    if (offsets[i] !== valueOffsets[i])
      throw new ParquetDataError(`the map's keys and values differ in their entries at row ${Math.max(0, i - 1)}`);
  }
  for (let i = 0; i < rowCount; i++) {
    if ((keys.nulls?.[i] ?? 0) !== (values.nulls?.[i] ?? 0))
      throw new ParquetDataError(`the map's keys and values differ in whether row ${i} is NULL`);
  }
  const keyColumn = listElements(keys);
  if (keyColumn.nulls !== null && keyColumn.nulls.includes(1)) throw new ParquetDataError('a map key is NULL');
  return { type: column.type, length: rowCount, values: offsets, nulls: keys.nulls, children: [keyColumn, listElements(values)] };
}
