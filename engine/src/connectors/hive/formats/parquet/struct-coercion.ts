// A struct read as the row type a table declares: fields are matched by name (case-insensitively,
// as Hive matches struct fields), so a file whose struct lists its fields in another order, lacks
// one (NULL) or has more (ignored) still reads into the declared fields; each field coerces as a
// column does.

import { constantColumn, type Column } from '../../../../columnar/page.js';
import { rowFieldColumns } from '../../../../columnar/row-column.js';
import type { RowType } from '../../../../types/row-type.js';
import type { SqlType } from '../../../../types/types.js';
import type { Coercion } from './column-coercion.js';

export function rowWidening(
  fileType: RowType,
  declared: RowType,
  widening: (from: SqlType, to: SqlType) => Coercion | null,
): Coercion | null {
  const sources = declared.fields.map((f) =>
    fileType.fields.findIndex((g) => g.name !== undefined && f.name !== undefined && g.name.toLowerCase() === f.name.toLowerCase()),
  );
  const casts: Coercion[] = [];
  for (let i = 0; i < sources.length; i++) {
    if (sources[i] < 0) continue;
    const cast = widening(fileType.fields[sources[i]].type, declared.fields[i].type);
    if (cast === null) return null;
    casts[i] = cast;
  }
  return (c: Column) => {
    const fields = rowFieldColumns(c);
    const children = declared.fields.map((f, i) => {
      if (sources[i] < 0) return constantColumn(f.type, null, c.length);
      const field = fields[sources[i]];
      return casts[i] === undefined ? field : (casts[i] as (column: Column) => Column)(field);
    });
    return { ...c, type: declared, children };
  };
}
