// The catalog property `tpch.column-naming`, as in Trino's tpch connector: STANDARD names columns as
// the TPC-H specification does (o_orderkey), SIMPLIFIED drops the table prefix (orderkey) — Trino's
// default. The embedded catalog keeps STANDARD; a catalog sets SIMPLIFIED to match Trino's names.

export const COLUMN_NAMINGS = ['STANDARD', 'SIMPLIFIED'] as const;
export type ColumnNaming = (typeof COLUMN_NAMINGS)[number];

/** The name a column has under `naming`: `l_orderkey` or `orderkey`. */
export function namedColumn(standardName: string, naming: ColumnNaming): string {
  return naming === 'STANDARD' ? standardName : standardName.slice(standardName.indexOf('_') + 1);
}
