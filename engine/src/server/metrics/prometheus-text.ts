// Prometheus' exposition formats: the text format 0.0.4 (what Prometheus asks for by default) and
// OpenMetrics 1.0 (when the scraper's Accept header asks for it). A counter's family is named without
// `_total` and its sample with it, as OpenMetrics wants; the text format names both with it.

export type MetricType = 'counter' | 'gauge';

export interface Sample {
  labels?: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  /** Prometheus' conventions: snake_case, base units in the name (`_bytes`, `_seconds`), a counter without its `_total`. */
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
}

export const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_FORMAT = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

export function renderMetrics(families: readonly MetricFamily[], openMetrics: boolean): string {
  const lines: string[] = [];
  for (const family of families) {
    const sampleName = family.type === 'counter' ? `${family.name}_total` : family.name;
    const familyName = openMetrics ? family.name : sampleName;
    lines.push(`# HELP ${familyName} ${escapeHelp(family.help)}`);
    lines.push(`# TYPE ${familyName} ${family.type}`);
    for (const sample of family.samples) lines.push(`${sampleName}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
  }
  if (openMetrics) lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  if (labels === undefined) return '';
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
