// The sqllogictest file format (SQLite's sqllogictest.c is the reference): records separated by
// blank lines; lines starting with '#' are comments wherever they appear; `skipif` / `onlyif`
// lines in front of a record limit it to certain database engines.

export type SortMode = 'nosort' | 'rowsort' | 'valuesort';
export type TypeLetter = 'I' | 'R' | 'T';

export type ExpectedResult = { kind: 'values'; values: string[] } | { kind: 'hash'; count: number; hash: string };

export interface Condition {
  kind: 'skipif' | 'onlyif';
  engine: string;
}

interface RecordBase {
  /** 1-based line of the record's first line (after its conditions). */
  line: number;
  conditions: Condition[];
}

export type TestRecord =
  | (RecordBase & { kind: 'statement'; expectError: boolean /** `statement error <regex>` */; errorPattern?: string; sql: string })
  | (RecordBase & {
      kind: 'query';
      types: TypeLetter[];
      sort: SortMode;
      label?: string;
      sql: string;
      /** null when the record has no `----` section: the query only has to succeed. */
      expected: ExpectedResult | null;
    })
  | (RecordBase & { kind: 'hash-threshold'; threshold: number })
  | (RecordBase & { kind: 'halt' })
  | (RecordBase & { kind: 'invalid'; message: string });

const HASH_LINE = /^(\d+) values hashing to ([0-9a-f]{32})$/;
/** The reference runner keeps labels to 20 characters. */
const MAX_LABEL_LENGTH = 20;

interface Line {
  number: number;
  text: string;
}

export function parseTestFile(text: string): TestRecord[] {
  const records: TestRecord[] = [];
  for (const block of recordBlocks(text)) records.push(parseRecord(block));
  return records;
}

/** Groups the non-comment lines into records: runs of non-blank lines. */
function recordBlocks(text: string): Line[][] {
  const blocks: Line[][] = [];
  let current: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('#')) return;
    if (line.trim() === '') {
      if (current.length > 0) blocks.push(current);
      current = [];
      return;
    }
    current.push({ number: i + 1, text: line });
  });
  if (current.length > 0) blocks.push(current);
  return blocks;
}

function tokens(text: string): string[] {
  return text.trim().split(/\s+/);
}

function parseRecord(block: Line[]): TestRecord {
  const conditions: Condition[] = [];
  let index = 0;
  for (; index < block.length; index++) {
    const [kind, engine] = tokens(block[index].text);
    if (kind !== 'skipif' && kind !== 'onlyif') break;
    conditions.push({ kind, engine: (engine ?? '').toLowerCase() });
  }
  if (index === block.length) {
    return { kind: 'invalid', line: block[0].number, conditions, message: 'condition without a record' };
  }
  const head = block[index];
  const body = block.slice(index + 1);
  const base = { line: head.number, conditions };
  const [kind, ...args] = tokens(head.text);
  switch (kind) {
    case 'statement':
      return parseStatement(base, head.text, args, body);
    case 'query':
      return parseQuery(base, args, body);
    case 'hash-threshold': {
      const threshold = Number(args[0]);
      if (!Number.isInteger(threshold) || threshold < 0) return { kind: 'invalid', ...base, message: `bad hash-threshold '${args[0]}'` };
      return { kind: 'hash-threshold', ...base, threshold };
    }
    case 'halt':
      return { kind: 'halt', ...base };
    default:
      return { kind: 'invalid', ...base, message: `unknown record type: '${kind}'` };
  }
}

function sqlOf(lines: Line[]): string {
  return lines.map((l) => l.text).join('\n');
}

function parseStatement(base: RecordBase, headText: string, args: string[], body: Line[]): TestRecord {
  const [mode] = args;
  if (mode !== 'ok' && mode !== 'error') {
    return { kind: 'invalid', ...base, message: "statement argument should be 'ok' or 'error'" };
  }
  const record: TestRecord = { kind: 'statement', ...base, expectError: mode === 'error', sql: sqlOf(body) };
  if (mode === 'error') {
    const pattern = headText.trim().replace(/^statement\s+error\s*/, '');
    if (pattern !== '') record.errorPattern = pattern;
  }
  return record;
}

function parseQuery(base: RecordBase, args: string[], body: Line[]): TestRecord {
  const [typeString = '', sortArg = 'nosort', label] = args;
  if (typeString === '') return { kind: 'invalid', ...base, message: 'missing type string' };
  const badType = [...typeString].find((c) => c !== 'I' && c !== 'R' && c !== 'T');
  if (badType !== undefined) return { kind: 'invalid', ...base, message: `unknown type character '${badType}' in type string` };
  if (sortArg !== 'nosort' && sortArg !== 'rowsort' && sortArg !== 'valuesort') {
    return { kind: 'invalid', ...base, message: `unknown sort method: '${sortArg}'` };
  }
  const separator = body.findIndex((l) => l.text === '----');
  const sqlLines = separator < 0 ? body : body.slice(0, separator);
  const expected = separator < 0 ? null : parseExpected(body.slice(separator + 1).map((l) => l.text));
  return {
    kind: 'query',
    ...base,
    types: [...typeString] as TypeLetter[],
    sort: sortArg,
    ...(label === undefined ? {} : { label: label.slice(0, MAX_LABEL_LENGTH) }),
    sql: sqlOf(sqlLines),
    expected,
  };
}

function parseExpected(lines: string[]): ExpectedResult {
  const hash = lines.length === 1 ? HASH_LINE.exec(lines[0].trim()) : null;
  if (hash !== null) return { kind: 'hash', count: Number(hash[1]), hash: hash[2] };
  return { kind: 'values', values: lines };
}

/** Whether a record's conditions let it run on an engine known by `engineNames` (lower case). */
export function recordApplies(conditions: readonly Condition[], engineNames: ReadonlySet<string>): boolean {
  return conditions.every((c) => (c.kind === 'skipif' ? !engineNames.has(c.engine) : engineNames.has(c.engine)));
}
