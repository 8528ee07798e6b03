import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartLine } from './chart-lines';

const HEIGHT = 180;

/** What the chart was last given, written on its host so a test can read what it draws without pixels. */
function drawnTotal(lines: readonly ChartLine[]): number {
  let total = 0;
  for (const line of lines) for (const v of line.values) total += v ?? 0;
  return total;
}

/**
 * Several lines over one time axis, drawn by uPlot (loaded lazily by the chart card). Rebuilt when
 * the set of lines changes, fed with setData otherwise; where the page cannot draw it says so.
 */
export function UplotLines({
  xs,
  lines,
  label,
  unit,
}: {
  /** Bucket starts, epoch seconds. */
  xs: number[];
  lines: ChartLine[];
  label: string;
  unit: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [failed, setFailed] = useState(false);
  const shape = lines.map((l) => `${l.label}\u0000${l.color}`).join('\u0001');
  // The shape effect needs the lines of its own render; the data effect keeps them current.
  const latest = useRef({ xs, lines });
  latest.current = { xs, lines };

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // uPlot draws on a 2D canvas in a later frame; without one (a test DOM) say so now.
    if (!document.createElement('canvas').getContext('2d')) return setFailed(true);
    const { xs: x0, lines: l0 } = latest.current;
    // Axis text and grid follow the page's colour scheme (uPlot's defaults assume a white page).
    const css = getComputedStyle(el);
    const text = css.getPropertyValue('--muted').trim() || '#60646c';
    const grid = { stroke: css.getPropertyValue('--border').trim() || '#dcdde1', width: 1 };
    const ticks = { stroke: grid.stroke, width: 1 };
    try {
      chart.current = new uPlot(
        {
          width: Math.max(240, el.clientWidth || 560),
          height: HEIGHT,
          legend: { show: false },
          cursor: { points: { show: false } },
          scales: { y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
          series: [
            {},
            ...l0.map((l) => ({
              label: l.label,
              stroke: l.color,
              width: 2,
              spanGaps: l.spanGaps === true,
              // A sparse line (one busy minute) has no segment to draw: mark its points.
              points: { show: l.spanGaps === true, size: 6, fill: l.color },
            })),
          ],
          axes: [
            { stroke: text, grid, ticks },
            { stroke: text, grid, ticks, size: 56, label: unit, labelSize: 14 },
          ],
        },
        [x0, ...l0.map((l) => l.values)],
        el,
      );
      el.dataset.drawnTotal = String(drawnTotal(l0));
    } catch {
      setFailed(true);
    }
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [shape, unit]);

  useEffect(() => {
    chart.current?.setData([xs, ...lines.map((l) => l.values)]);
    if (chart.current && host.current) host.current.dataset.drawnTotal = String(drawnTotal(lines));
  }, [xs, lines]);

  useEffect(() => {
    const el = host.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      chart.current?.setSize({ width: Math.max(240, el.clientWidth), height: HEIGHT }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return failed ? (
    <p className="muted small">The chart cannot be drawn here.</p>
  ) : (
    <div ref={host} className="overview-uplot" role="img" aria-label={label} />
  );
}
