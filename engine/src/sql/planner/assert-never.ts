// The end of a switch over a union's kinds: a kind added to the union and not handled there is a
// compile error at every such switch, instead of a silent default.

export function assertNever(value: never, what = 'plan node'): never {
  const kind = (value as { kind?: unknown } | null)?.kind;
  throw new Error(`Unexpected ${what}: ${String(kind ?? value)}`);
}
