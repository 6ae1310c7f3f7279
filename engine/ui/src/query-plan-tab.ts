// The distributed plan as a graph: each fragment a box of its plan nodes, exchanges as the edges
// between fragments, and on every node what its operators did (rows out, CPU, wall). Laid out by
// dagre (loaded with this tab only), drawn as SVG. Below it the plan's text as EXPLAIN prints it,
// with the physical plan that runs (parallel scans, their threads and adaptive decisions).

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PlanGraphFragment, QueryDetail } from './api-types.js';
import { count, millis } from './format.js';
import { planNodeFigures, type PlanNodeFigures } from './plan-figures.js';

type Dagre = typeof import('@dagrejs/dagre').default;

const NODE_WIDTH = 260;
const NODE_HEIGHT = 58;
const LABEL_CHARS = 32;
/** Room above a fragment's nodes for its name. */
const FRAGMENT_TITLE = 20;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Layout {
  width: number;
  height: number;
  fragments: Array<{ fragment: PlanGraphFragment; box: Box }>;
  nodes: Array<{ id: number; fragment: number; kind: string; label: string; box: Box }>;
  edges: Array<{ points: Array<{ x: number; y: number }>; label?: string; exchange: boolean }>;
}

export function QueryPlanTab({ detail }: { detail: QueryDetail }): VNode {
  return html`<${PlanGraph} detail=${detail} />${
    detail.planText ? html`<h3>Plan as EXPLAIN prints it</h3><pre class="plan-text">${detail.planText}</pre>` : null
  }`;
}

function PlanGraph({ detail }: { detail: QueryDetail }): VNode {
  const [dagre, setDagre] = useState<Dagre | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    import('@dagrejs/dagre').then((m) => setDagre(() => m.default), (e: Error) => setError(e.message));
  }, []);
  if (!detail.plan) return html`<p class="muted">This query has no distributed plan (it is not planned yet, or it is a statement that runs no tasks).</p>`;
  if (error) return html`<p class="error">${error}</p>`;
  if (!dagre) return html`<p class="muted">Drawing the plan…</p>`;
  const layout = layoutPlan(dagre, detail.plan);
  const figures = planNodeFigures(detail);
  return html`<div class="plan-wrap"><svg class="plan" width=${layout.width} height=${layout.height} viewBox=${`0 0 ${layout.width} ${layout.height}`} role="img" aria-label="Distributed plan">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" /></marker></defs>
    ${layout.fragments.map(({ fragment, box }) => html`<g class="fragment" data-fragment=${fragment.id}>
      <rect x=${box.x} y=${box.y} width=${box.width} height=${box.height} rx="8" />
      <text x=${box.x + 8} y=${box.y + 16} class="fragment-label">Fragment ${fragment.id} [${fragment.partitioning}]</text>
    </g>`)}
    ${layout.edges.map((e) => html`<g class=${e.exchange ? 'edge exchange' : 'edge'}>
      <path d=${pathOf(e.points)} marker-end="url(#arrow)" />
      ${e.label ? html`<text x=${e.points[Math.floor(e.points.length / 2)]!.x + 6} y=${e.points[Math.floor(e.points.length / 2)]!.y} class="edge-label">${e.label}</text>` : null}
    </g>`)}
    ${layout.nodes.map((n) => planNode(n, figures.get(n.id)))}
  </svg></div>`;
}

function planNode(n: Layout['nodes'][number], f: PlanNodeFigures | undefined): VNode {
  const { x, y, width, height } = n.box;
  const label = n.label.length > LABEL_CHARS ? `${n.label.slice(0, LABEL_CHARS - 1)}…` : n.label;
  const stats = f ? `${count(f.outputRows)} rows · CPU ${millis(f.cpuMillis)} · wall ${millis(f.wallMillis)}` : 'not run yet';
  return html`<g class=${`plan-node kind-${n.kind}`} data-plan-node=${n.id}>
    <title>${n.label}${f ? `\nOutput ${f.outputRows} rows, input ${f.inputRows} rows\nCPU ${millis(f.cpuMillis)}, wall ${millis(f.wallMillis)}, blocked ${millis(f.blockedMillis)}\nOperators: ${[...f.operators].join(', ')}` : ''}</title>
    <rect x=${x} y=${y} width=${width} height=${height} rx="6" />
    <text x=${x + 8} y=${y + 20} class="node-label">${label}</text>
    <text x=${x + 8} y=${y + 42} class="node-stats">${stats}</text>
  </g>`;
}

function layoutPlan(dagre: Dagre, fragments: PlanGraphFragment[]): Layout {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: false });
  g.setGraph({ rankdir: 'BT', nodesep: 24, ranksep: 52, marginx: 16, marginy: 16 + FRAGMENT_TITLE });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map<number, { fragment: number; kind: string; label: string }>();
  for (const f of fragments) {
    g.setNode(`f${f.id}`, { label: `Fragment ${f.id}`, paddingTop: 28 });
    for (const n of f.nodes) {
      byId.set(n.id, { fragment: f.id, kind: n.kind, label: n.label });
      g.setNode(`n${n.id}`, { width: NODE_WIDTH, height: NODE_HEIGHT });
      g.setParent(`n${n.id}`, `f${f.id}`);
    }
  }
  const rootOf = new Map(fragments.map((f) => [f.id, f]));
  const exchangeLabels = new Map<string, string>();
  for (const f of fragments) {
    for (const n of f.nodes) {
      for (const source of n.sources) g.setEdge(`n${source}`, `n${n.id}`);
      for (const remote of n.remoteFragments ?? []) {
        const child = rootOf.get(remote);
        if (child === undefined) continue;
        g.setEdge(`n${child.root}`, `n${n.id}`);
        exchangeLabels.set(`n${child.root}->n${n.id}`, `${n.exchangeType ?? child.outputType}${child.outputKeys.length > 0 ? ` [${child.outputKeys.join(', ')}]` : ''}`);
      }
    }
  }
  dagre.layout(g);
  const box = (name: string): Box => {
    const { x, y, width, height } = g.node(name) as unknown as Box;
    return { x: x - width / 2, y: y - height / 2, width, height };
  };
  const graph = g.graph() as { width?: number; height?: number };
  return {
    width: Math.ceil(graph.width ?? 400),
    height: Math.ceil(graph.height ?? 300),
    fragments: fragments.map((fragment) => {
      const b = box(`f${fragment.id}`);
      return { fragment, box: { ...b, y: b.y - FRAGMENT_TITLE, height: b.height + FRAGMENT_TITLE } };
    }),
    nodes: [...byId].map(([id, n]) => ({ id, ...n, box: box(`n${id}`) })),
    edges: g.edges().map((e) => {
      const label = exchangeLabels.get(`${e.v}->${e.w}`);
      return { points: (g.edge(e) as { points: Array<{ x: number; y: number }> }).points, label, exchange: label !== undefined };
    }),
  };
}

function pathOf(points: Array<{ x: number; y: number }>): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
}
