import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * One line over time, drawn by uPlot (the dashboard's chart library). Loaded lazily by its callers;
 * where the page cannot draw (no canvas), it says so instead of throwing.
 */
export function UplotLine({ xs, ys, label }: { xs: number[]; ys: number[]; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // uPlot draws on a 2D canvas in a later frame; without one (a test DOM, a locked-down renderer) say so now.
    if (!document.createElement('canvas').getContext('2d')) return setFailed(true);
    try {
      const stroke = getComputedStyle(el).getPropertyValue('--accent').trim() || '#2f6fdd';
      chart.current = new uPlot(
        {
          width: Math.max(240, el.clientWidth || 480),
          height: 140,
          legend: { show: false },
          series: [{}, { label, stroke, width: 2 }],
          axes: [{}, { size: 56 }],
        },
        [[], []],
        el,
      );
    } catch {
      setFailed(true);
    }
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [label]);

  useEffect(() => {
    chart.current?.setData([xs, ys]);
  }, [xs, ys]);

  useEffect(() => {
    const el = host.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      chart.current?.setSize({ width: Math.max(240, el.clientWidth), height: 140 }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return failed ? (
    <p className="muted small">The chart cannot be drawn here.</p>
  ) : (
    <div ref={host} className="quota-uplot" />
  );
}
