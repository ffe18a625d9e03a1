// Line chart of every player's total after each hand, drawn as inline SVG.
import { t } from './i18n.js';
import { h, s, num } from './util.js';
import { VARIANTS, goalOf } from './variants.js';

const LINE_GAP = 3; // px between lines that share a total

export const PALETTE = [
  '#e4572e',
  '#2e86ab',
  '#e0a100',
  '#7b4fa8',
  '#2a9d3a',
  '#d81b72',
  '#00a3a3',
  '#8d6e63',
];

export function playerColor(i) {
  return PALETTE[i % PALETTE.length];
}

/** Totals after each hand, per player (index 0 = before the first hand). */
export function totalsSeries(game) {
  const names = (game.players || []).map((p) => p.name);
  const series = names.map(() => [0]);
  for (const hand of game.hands || []) {
    const rows = hand.result?.players || [];
    names.forEach((name, i) => {
      const row = rows.find((r) => r.name === name);
      const prev = series[i][series[i].length - 1];
      series[i].push(row && typeof row.total === 'number' ? row.total : prev);
    });
  }
  return series;
}

function niceStep(range, target) {
  const raw = range / Math.max(1, target);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

function referenceLine(game) {
  const value = goalOf(game.variant, game.settings || {});
  if (value == null) return null;
  return { value, label: VARIANTS[game.variant]?.lowIsGood ? t('chart.out') : t('chart.target') };
}

const W = 360;
const H = 210;
const M = { l: 38, r: 14, t: 12, b: 26 };
const IW = W - M.l - M.r;
const IH = H - M.t - M.b;

/** The chart's frame: the y range (nice steps, the reference line inside) and the scales. */
function frame(series, ref, n) {
  const all = series.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(10, ...all);
  if (ref) hi = Math.max(hi, ref.value);
  if (ref && ref.value < lo) lo = ref.value;
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) hi = lo + step;
  return {
    lo, hi, step, n,
    xs: (i) => M.l + (n === 0 ? 0 : (i / n) * IW),
    ys: (v) => M.t + IH - ((v - lo) / (hi - lo)) * IH,
  };
}

function axes(svg, f) {
  for (let v = f.lo; v <= f.hi + 1e-9; v += f.step) {
    const y = f.ys(v);
    svg.append(
      s('line', { x1: M.l, x2: W - M.r, y1: y, y2: y, class: v === 0 ? 'grid zero' : 'grid' }),
      s('text', { x: M.l - 6, y: y + 4, class: 'axis', 'text-anchor': 'end' }, num(Math.round(v))),
    );
  }
  // X labels: hand numbers, thinned out when there are many.
  const every = Math.max(1, Math.ceil(f.n / 8));
  const label = (i) => s('text', { x: f.xs(i), y: H - 8, class: 'axis', 'text-anchor': 'middle' }, String(i));
  for (let i = 0; i <= f.n; i += every) svg.append(label(i));
  if (f.n > 0 && f.n % every !== 0) svg.append(label(f.n));
}

function referenceMark(svg, f, ref) {
  const y = f.ys(ref.value);
  svg.append(
    s('line', { x1: M.l, x2: W - M.r, y1: y, y2: y, class: 'refline' }),
    s('text', { x: M.l + 4, y: y - 4, class: 'reflabel', 'text-anchor': 'start' }, `${ref.label} ${ref.value}`),
  );
}

function lines(svg, f, series, game) {
  const shift = spread(series, LINE_GAP, [0, f.lo]);
  series.forEach((pts, i) => {
    const color = playerColor(i);
    const y = (v, j) => f.ys(v) + shift[i][j];
    const d = pts.map((v, j) => `${j === 0 ? 'M' : 'L'}${f.xs(j).toFixed(1)},${y(v, j).toFixed(1)}`).join(' ');
    const eliminated = game.players[i]?.eliminated;
    svg.append(s('path', {
      d,
      class: `line${eliminated ? ' out' : ''}`,
      stroke: color,
      testid: `chart-line-${i}`,
      'data-player': game.players[i]?.name,
    }));
    const last = pts.length - 1;
    svg.append(s('circle', { cx: f.xs(last), cy: y(pts[last], last), r: 4, fill: color, class: 'dot' }));
  });
}

/**
 * What the chart draws, for the page's SVG and the shared picture alike: the totals, the
 * frame (scales in a W × H drawing with margins M), the reference line and the lines' fan.
 */
export function chartModel(game) {
  const series = totalsSeries(game);
  const n = (game.hands || []).length;
  const ref = referenceLine(game);
  const f = frame(series, ref, n);
  return { series, n, ref, f, shift: spread(series, LINE_GAP, [0, f.lo]), W, H, M };
}

/** Every player's total after each hand, with the target (or elimination) line. */
export function renderChart(game) {
  const { series, n, ref, f } = chartModel(game);
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': t('chart.label'), testid: 'chart-svg',
  });
  axes(svg, f);
  if (ref) referenceMark(svg, f, ref);
  lines(svg, f, series, game);
  if (n === 0) {
    svg.append(s('text', { x: M.l + IW / 2, y: M.t + IH / 2, class: 'chart-empty', 'text-anchor': 'middle' },
      t('chart.empty')));
  }
  const legend = h('ul', { class: 'legend' },
    (game.players || []).map((p, i) => h('li', { class: p.eliminated ? 'out' : '' },
      h('span', { class: 'swatch', style: `background:${playerColor(i)}` }),
      h('span', { class: 'whole-name', title: p.name }, p.name))));
  return h('div', {}, svg, legend);
}

/**
 * Pixel offsets (SVG: negative is up) that keep lines apart where players have the same
 * total: at each hand the players on one value are fanned out around it (LINE_GAP apart),
 * so no line hides another. On a `floors` value (0, where every line starts, and the
 * chart's bottom) they fan upwards only: no line is drawn below 0 it never went under.
 */
export function spread(series, gap = LINE_GAP, floors = []) {
  const shift = series.map((pts) => pts.map(() => 0));
  const hands = Math.max(0, ...series.map((pts) => pts.length));
  for (let j = 0; j < hands; j++) {
    const byValue = new Map();
    series.forEach((pts, i) => {
      if (j < pts.length) byValue.set(pts[j], [...(byValue.get(pts[j]) || []), i]);
    });
    for (const [value, same] of byValue) {
      const up = floors.includes(value);
      same.forEach((i, k) => {
        shift[i][j] = up ? (k === 0 ? 0 : -k * gap) : (k - (same.length - 1) / 2) * gap;
      });
    }
  }
  return shift;
}
