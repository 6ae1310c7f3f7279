// A chart of figures over time (uPlot): a sparkline in a tile, or a chart with axes and a legend on
// a node's page. Times are epoch milliseconds; the chart redraws its data in place as it grows.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type uPlotType from 'uplot';
import { loadUplot } from './uplot-loader.js';

export interface ChartSeries {
  label: string;
  values: number[];
  /** How the legend and axis write a value. */
  format?: (value: number) => string;
}

export interface TimeChartProps {
  times: number[];
  series: ChartSeries[];
  /** A sparkline: no axes, no legend. */
  compact?: boolean;
  height?: number;
  label: string;
}

const COLORS = ['#3b82f6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];

export function TimeChart({ times, series, compact = false, height, label }: TimeChartProps): VNode {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlotType | undefined>(undefined);
  const data = [times.map((t) => t / 1000), ...series.map((s) => s.values)] as uPlotType.AlignedData;
  const shape = `${compact}:${series.map((s) => s.label).join(',')}`;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadUplot().then((uPlot) => {
      const element = container.current;
      if (disposed || !element) return;
      const width = Math.max(100, element.clientWidth);
      const textColor = getComputedStyle(element).color;
      const options: uPlotType.Options = {
        width,
        height: height ?? (compact ? 40 : 180),
        cursor: { show: !compact },
        legend: { show: !compact },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        axes: compact
          ? [{ show: false }, { show: false }]
          : [
              { stroke: textColor, grid: { stroke: 'rgba(128,128,128,0.2)' } },
              { stroke: textColor, grid: { stroke: 'rgba(128,128,128,0.2)' }, size: 70, values: (_u, values) => values.map((v) => (series[0]?.format ? series[0].format(v) : String(v))) },
            ],
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLORS[i % COLORS.length],
            width: compact ? 1.5 : 2,
            fill: compact ? `${COLORS[i % COLORS.length]}22` : undefined,
            points: { show: false },
            value: (_u: uPlotType, v: number | null) => (v === null ? '–' : s.format ? s.format(v) : String(v)),
          })),
        ],
      };
      plot.current = new uPlot(options, data, element);
      observer = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(100, element.clientWidth), height: options.height }));
      observer.observe(element);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      plot.current?.destroy();
      plot.current = undefined;
    };
    // The chart is made again only when its kind changes; new data is set below.
  }, [shape, height]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return html`<div class=${compact ? 'chart sparkline' : 'chart'} ref=${container} role="img" aria-label=${label}></div>`;
}
