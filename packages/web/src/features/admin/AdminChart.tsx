import { useEffect, useId, useRef, useState } from 'react';

// The admin area's one chart: a line or bars over a run of days, drawn by uPlot (a canvas),
// which is fetched only when a chart is on screen. The canvas is hidden from screen readers:
// the figure carries a sentence that says what it shows, and the same numbers are a table one
// click away, so a reader without the picture (or without a canvas) loses nothing.

export interface ChartSeries {
  label: string;
  /** One value a day, in the order of `days`. */
  values: readonly number[];
}

const COLOURS = ['#FF4458', '#1F2937', '#0EA5E9'];

export function AdminChart({
  title,
  days,
  series,
  kind = 'bar',
  format = (n: number) => n.toLocaleString(),
  height = 140,
}: {
  title: string;
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: readonly string[];
  series: readonly ChartSeries[];
  kind?: 'bar' | 'line';
  format?: (n: number) => string;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  const descId = useId();
  const titleId = useId();
  const first = series[0];
  const total = first ? first.values.reduce((a, b) => a + b, 0) : 0;
  const max = first ? Math.max(0, ...first.values) : 0;
  const summary =
    days.length === 0 || !first
      ? `${title}: no data.`
      : `${title}, ${days[0]} to ${days[days.length - 1]}: ${series
          .map((s) => `${s.label} ${format(s.values.reduce((a, b) => a + b, 0))} in all`)
          .join(', ')}; at most ${format(max)} a day.`;

  // Redraw when the numbers change, not when a parent passes equal arrays anew.
  const dataKey = JSON.stringify([days, series]);
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    const el = box.current;
    const [days, series] = JSON.parse(dataKey) as [string[], ChartSeries[]];
    const format = (n: number) => formatRef.current(n);
    if (!el || days.length === 0) return;
    // No canvas (a test's DOM, a very old browser): the table below is the chart.
    if (!document.createElement('canvas').getContext?.('2d')) return;
    let plot: { destroy(): void; setSize(s: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return;
        const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
        const width = Math.max(200, el.clientWidth);
        const bars = UPlot.paths.bars?.({ size: [0.7, 24] });
        plot = new UPlot(
          {
            width,
            height,
            legend: { show: series.length > 1 },
            cursor: { drag: { x: false, y: false } },
            tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
            scales: { y: { range: (_u, _min, hi) => [0, Math.max(1, hi)] } },
            axes: [
              { stroke: '#6B7280', grid: { show: false } },
              { stroke: '#6B7280', size: 48, values: (_u, vals) => vals.map((v) => format(v)) },
            ],
            series: [
              {},
              ...series.map((s, i) => ({
                label: s.label,
                stroke: COLOURS[i % COLOURS.length],
                width: kind === 'line' ? 2 : 0,
                fill: kind === 'bar' ? COLOURS[i % COLOURS.length] : undefined,
                paths: kind === 'bar' ? bars : undefined,
                points: { show: false },
                value: (_u: unknown, v: number | null) => (v == null ? '—' : format(v)),
              })),
            ],
          },
          [xs, ...series.map((s) => [...s.values])],
          el,
        );
        setDrawn(true);
        observer = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, el.clientWidth), height }));
        observer.observe(el);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [dataKey, kind, height]);

  return (
    <figure className="min-w-0 rounded-xl border border-line p-4" aria-labelledby={titleId} aria-describedby={descId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span id={titleId} className="font-semibold text-ink">
          {title}
        </span>
        {first ? (
          <span className="text-sm text-muted">
            {format(total)} in {days.length} days
          </span>
        ) : null}
      </figcaption>
      <p id={descId} className="sr-only">
        {summary}
      </p>
      <div ref={box} aria-hidden="true" className="mt-3 w-full overflow-hidden" style={{ minHeight: drawn ? height : 0 }} />
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-muted">Show the numbers</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable). */}
        <section tabIndex={0} className="mt-2 max-h-60 overflow-auto" aria-label={`${title}: the numbers`}>
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">{title} by day</caption>
            <thead>
              <tr>
                <th scope="col" className="border-b border-line px-2 py-1 text-muted">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="border-b border-line px-2 py-1 text-right text-muted">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d, i) => (
                <tr key={d}>
                  <th scope="row" className="border-b border-line px-2 py-1 font-normal text-ink">
                    {d}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="border-b border-line px-2 py-1 text-right text-ink tabular-nums">
                      {format(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}
