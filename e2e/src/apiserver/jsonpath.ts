// The JSONPath subset additionalPrinterColumns and scale paths use: .a.b, .a[0].b, .a['x.y'].
export function jsonPathGet(obj: unknown, path: string): unknown {
  const parts: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(path)) !== null) {
    if (m.index !== consumed) return undefined;
    consumed = re.lastIndex;
    parts.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4])));
  }
  if (consumed !== path.length) return undefined;
  let node: unknown = obj;
  for (const p of parts) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[p];
  }
  return node;
}

/** Sets a value at a dotted path, creating objects on the way. */
export function jsonPathSet(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let node = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}
