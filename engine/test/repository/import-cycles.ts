// The largest set of nodes that all reach one another through edges (a strongly connected
// component, Tarjan's algorithm): for imports between folders, the folders no layering can order.

export interface Edge {
  from: string;
  to: string;
}

/** The nodes of the largest strongly connected component with more than one node, sorted (empty when there is none). */
export function largestCycle(edges: readonly Edge[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)?.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let largest: string[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 && component.length > largest.length) largest = component;
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return largest.sort();
}
