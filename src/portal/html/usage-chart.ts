import { type Html, html } from './escape.ts';

export interface DayCalls {
  readonly day: string;
  readonly calls: number;
}

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 56;
const BOTTOM = 28;
const TOP = 12;

/** A round step for the y axis: 1, 2 or 5 times a power of ten, about four lines in all, never below one call. */
function step(max: number): number {
  const rough = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? power * 10;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Calls per day as an SVG bar chart, drawn on the server (no script): one bar per day of the
 * month, the days still to come left empty, round gridlines, and every bar titled with its day
 * and count for a pointer or a screen reader. The table beside it says the same in words.
 */
export function usageChart(days: readonly DayCalls[], daysInMonth: number, label: string): Html {
  const max = Math.max(0, ...days.map((d) => d.calls));
  const unit = step(max);
  const top = Math.max(unit, Math.ceil(max / unit) * unit);
  const plotW = WIDTH - LEFT - 8;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / daysInMonth;
  const barW = Math.max(2, slot * 0.72);
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  const lines = [];
  for (let v = 0; v <= top; v += unit)
    lines.push(
      html`<line x1="${LEFT}" x2="${WIDTH - 8}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${LEFT - 8}" y="${y(v) + 4}" class="axis" text-anchor="end">${count(v)}</text>`,
    );
  const bars = days.map((d, i) => {
    const h = (d.calls / top) * plotH;
    const x = LEFT + i * slot + (slot - barW) / 2;
    return html`<rect x="${x.toFixed(1)}" y="${(TOP + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" rx="2" class="bar"><title>${d.day}: ${count(d.calls)} calls</title></rect>`;
  });
  const ticks = [];
  for (let day = 1; day <= daysInMonth; day++)
    if (day === 1 || day % 5 === 0)
      ticks.push(
        html`<text x="${(LEFT + (day - 0.5) * slot).toFixed(1)}" y="${HEIGHT - 8}" class="axis" text-anchor="middle">${day}</text>`,
      );
  return html`<svg class="usage-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">${lines}${bars}${ticks}</svg>`;
}
