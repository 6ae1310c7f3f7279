// Nested column types (array, map, row) in both spellings: Trino's, which DESCRIBE shows
// (`row(a integer, b array(varchar))`), and Hive's, which the file metastore keeps
// (`struct<a:int,b:array<string>>`), as Trino's file metastore writes them. Rows the engine cannot
// process yet; their types are only named, so both spellings are plain text here.

/** A type term: a base name with parameters (types, numbers, or named fields of a row). */
interface TypeTerm {
  base: string;
  parameters: { field?: string; type?: TypeTerm; number?: string }[];
}

const NESTED_BASES = new Set(['array', 'map', 'row', 'struct']);

/** Whether `text` spells a nested type, in either spelling. */
export function isNestedTypeName(text: string): boolean {
  const match = /^\s*([a-z]+)\s*[(<]/i.exec(text);
  return match !== null && NESTED_BASES.has(match[1].toLowerCase());
}

/** Hive's base names for Trino's, where they differ (with and without parameters). */
const TRINO_TO_HIVE: Readonly<Record<string, string>> = { integer: 'int', real: 'float', varbinary: 'binary', row: 'struct' };
const HIVE_TO_TRINO: Readonly<Record<string, string>> = {
  int: 'integer',
  float: 'real',
  binary: 'varbinary',
  struct: 'row',
  string: 'varchar',
};

/** Hive's spelling of a Trino type name: `map(varchar, array(integer))` -> `map<string,array<int>>`. */
export function hiveTypeName(trino: string): string {
  return render(parseTypeTerm(trino), 'hive');
}

/** Trino's spelling of a Hive type name: `struct<a:int>` -> `row(a integer)`. */
export function trinoTypeName(hive: string): string {
  return render(parseTypeTerm(hive), 'trino');
}

/** The element's name (in the same spelling) of an array type name, undefined for any other name. */
export function arrayElementTypeName(text: string): string | undefined {
  const term = parseTypeTerm(text);
  if (term.base !== 'array' || term.parameters.length !== 1 || term.parameters[0].type === undefined) return undefined;
  return render(term.parameters[0].type, /</.test(text) ? 'hive' : 'trino');
}

/** The key's and value's names (in the same spelling) of a map type name, undefined for any other name. */
export function mapEntryTypeNames(text: string): [key: string, value: string] | undefined {
  const term = parseTypeTerm(text);
  const [key, value] = term.parameters;
  if (term.base !== 'map' || term.parameters.length !== 2 || key.type === undefined || value.type === undefined) return undefined;
  const spelling = /</.test(text) ? 'hive' : 'trino';
  return [render(key.type, spelling), render(value.type, spelling)];
}

/** The fields (names and type names, in the same spelling) of a row or struct type name, undefined for any other name. */
export function rowFieldTypeNames(text: string): { name: string; type: string }[] | undefined {
  const term = parseTypeTerm(text);
  if ((term.base !== 'row' && term.base !== 'struct') || term.parameters.some((p) => p.field === undefined || p.type === undefined))
    return undefined;
  const spelling = /</.test(text) ? 'hive' : 'trino';
  return term.parameters.map((p) => ({ name: p.field as string, type: render(p.type as TypeTerm, spelling) }));
}

function render(term: TypeTerm, spelling: 'hive' | 'trino'): string {
  const hive = spelling === 'hive';
  let base = (hive ? TRINO_TO_HIVE : HIVE_TO_TRINO)[term.base] ?? term.base;
  if (hive && term.base === 'varchar' && term.parameters.length === 0) base = 'string';
  if (hive && term.base === 'timestamp') return 'timestamp';
  if (!hive && term.base === 'timestamp' && term.parameters.length === 0) return 'timestamp(3)';
  if (term.parameters.length === 0) return base;
  const parameters = term.parameters.map((p) => {
    if (p.number !== undefined) return p.number;
    const type = render(p.type!, spelling);
    if (p.field === undefined) return type;
    return hive ? `${p.field}:${type}` : `${p.field} ${type}`;
  });
  const nested = NESTED_BASES.has(term.base);
  if (hive && nested) return `${base}<${parameters.join(',')}>`;
  return `${base}(${parameters.join(nested ? ', ' : ',')})`;
}

/** Parses either spelling; fails on text that is neither. */
function parseTypeTerm(text: string): TypeTerm {
  let at = 0;
  const fail = (): never => {
    throw new Error(`'${text}' is not a type name (at character ${at + 1})`);
  };
  const skipSpaces = (): void => {
    while (text[at] === ' ') at++;
  };
  const word = (): string => {
    skipSpaces();
    const match = /^[A-Za-z_][A-Za-z0-9_$]*|^\d+/.exec(text.slice(at));
    if (match === null) fail();
    at += match![0].length;
    return match![0];
  };
  const term = (): TypeTerm => {
    const base = word().toLowerCase();
    skipSpaces();
    const open = text[at];
    if (open !== '(' && open !== '<') return { base, parameters: [] };
    at++;
    const close = open === '(' ? ')' : '>';
    const fields = base === 'row' || base === 'struct';
    const parameters: TypeTerm['parameters'] = [];
    for (;;) {
      skipSpaces();
      if (/\d/.test(text[at] ?? '')) parameters.push({ number: word() });
      else if (fields) {
        const field = word();
        skipSpaces();
        if (text[at] === ':') at++;
        parameters.push({ field, type: term() });
      } else parameters.push({ type: term() });
      skipSpaces();
      if (text[at] === ',') at++;
      else if (text[at] === close) {
        at++;
        return { base, parameters };
      } else fail();
    }
  };
  const result = term();
  skipSpaces();
  if (at !== text.length) fail();
  return result;
}
