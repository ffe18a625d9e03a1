// The final score sheet shared from the phone: a picture (the hands table and the chart,
// drawn on a canvas in the page's own fonts), the same as a one-page PDF, or CSV, through the phone's share sheet where
// it has one (Web Share with files), else as a download.
import { chartModel, playerColor } from './chart.js';
import { language, t } from './i18n.js';
import {
  SCALE, SHEET, pdfOfJpeg, scoreSheetCsv, sheetFileName, sheetLayout, sheetRows,
} from './sheet.js';
import { h, num, signed } from './util.js';
import { variantLabel } from './variants.js';

// Light colours whatever the page's theme: the picture is read on other screens.
const INK = '#1b1f1d';
const MUTED = '#5f6b66';
const LINE = '#d5dcd8';
const STRIPE = '#f2f5f3';

/** The page's own font stack (no web font is fetched: the phone's fonts draw the sheet). */
function fontStack() {
  return getComputedStyle(document.body).fontFamily || 'sans-serif';
}

/** `text` cut with an ellipsis to `width` px in the context's current font. */
function fit(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function head(ctx, game, font) {
  const { pad } = SHEET;
  const when = new Date(game.created_at || Date.now()).toLocaleDateString(language(), { dateStyle: 'medium' });
  ctx.fillStyle = INK;
  ctx.font = `700 22px ${font}`;
  ctx.fillText(fit(ctx, `${t('app.name')} · ${variantLabel(game.variant)}`, SHEET.width - 2 * pad), pad, pad + 22);
  ctx.font = `400 14px ${font}`;
  ctx.fillStyle = MUTED;
  ctx.fillText(`${when} · ${t('board.handCount', { n: (game.hands || []).length })}`, pad, pad + 46);
  const who = game.game_over
    ? (game.winner ? t('over.wins', { name: game.winner }) : t('over.draw'))
    : t('sheet.inPlay');
  ctx.font = `700 16px ${font}`;
  ctx.fillStyle = INK;
  ctx.fillText(fit(ctx, who, SHEET.width - 2 * pad), pad, pad + 72);
}

function table(ctx, game, L, font) {
  const { pad, handCol, row, tableHead, total } = SHEET;
  const players = game.players || [];
  const x = (i) => pad + handCol + i * L.colW;
  let y = L.tableTop;
  ctx.font = `700 13px ${font}`;
  ctx.fillStyle = MUTED;
  ctx.textAlign = 'left';
  ctx.fillText('#', pad + 4, y + 26);
  players.forEach((p, i) => {
    ctx.fillStyle = playerColor(i);
    ctx.beginPath();
    ctx.arc(x(i) + 8, y + 21, 5, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = INK;
    ctx.fillText(fit(ctx, p.name, L.colW - 22), x(i) + 16, y + 26);
  });
  y += tableHead;
  ctx.font = `400 14px ${font}`;
  sheetRows(game).forEach((r, k) => {
    if (k % 2 === 0) {
      ctx.fillStyle = STRIPE;
      ctx.fillRect(pad, y, SHEET.width - 2 * pad, row);
    }
    ctx.fillStyle = MUTED;
    ctx.textAlign = 'left';
    ctx.fillText(String(r.n), pad + 4, y + 20);
    ctx.textAlign = 'right';
    r.points.forEach((v, i) => {
      ctx.fillStyle = INK;
      ctx.fillText(v == null ? '·' : signed(v), x(i) + L.colW - 8, y + 20);
    });
    y += row;
  });
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(pad, y);
  ctx.lineTo(SHEET.width - pad, y);
  ctx.stroke();
  ctx.font = `700 15px ${font}`;
  ctx.textAlign = 'left';
  ctx.fillStyle = INK;
  ctx.fillText(fit(ctx, t('sheet.total'), handCol - 6), pad + 4, y + total - 12);
  ctx.textAlign = 'right';
  players.forEach((p, i) => {
    ctx.fillText(num(p.total), x(i) + L.colW - 8, y + total - 12);
  });
  ctx.textAlign = 'left';
}

function chart(ctx, game, L, font) {
  const { series, n, ref, f, shift, W, M } = chartModel(game);
  ctx.save();
  ctx.translate(SHEET.pad, L.chartTop);
  ctx.scale(SHEET.chartW / W, SHEET.chartW / W);
  ctx.font = `400 10px ${font}`;
  ctx.lineWidth = 0.6;
  ctx.textAlign = 'right';
  for (let v = f.lo; v <= f.hi + 1e-9; v += f.step) {
    ctx.strokeStyle = v === 0 ? MUTED : LINE;
    ctx.beginPath();
    ctx.moveTo(M.l, f.ys(v));
    ctx.lineTo(W - M.r, f.ys(v));
    ctx.stroke();
    ctx.fillStyle = MUTED;
    ctx.fillText(num(Math.round(v)), M.l - 6, f.ys(v) + 4);
  }
  ctx.textAlign = 'center';
  const every = Math.max(1, Math.ceil(n / 8));
  for (let i = 0; i <= n; i += every) ctx.fillText(String(i), f.xs(i), 210 - 8);
  if (ref) {
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = '#c62828';
    ctx.beginPath();
    ctx.moveTo(M.l, f.ys(ref.value));
    ctx.lineTo(W - M.r, f.ys(ref.value));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'left';
    ctx.fillStyle = '#c62828';
    ctx.fillText(`${ref.label} ${ref.value}`, M.l + 4, f.ys(ref.value) - 4);
  }
  ctx.lineWidth = 2;
  series.forEach((pts, i) => {
    ctx.strokeStyle = playerColor(i);
    ctx.fillStyle = playerColor(i);
    ctx.beginPath();
    pts.forEach((v, j) => {
      ctx[j ? 'lineTo' : 'moveTo'](f.xs(j), f.ys(v) + shift[i][j]);
    });
    ctx.stroke();
    const last = pts.length - 1;
    ctx.beginPath();
    ctx.arc(f.xs(last), f.ys(pts[last]) + shift[i][last], 3.5, 0, Math.PI * 2);
    ctx.fill();
  });
  ctx.restore();
}

function legend(ctx, game, L, font) {
  const half = (SHEET.width - 2 * SHEET.pad) / 2;
  (game.players || []).forEach((p, i) => {
    const x = SHEET.pad + (i % 2) * half;
    const y = L.legendTop + Math.floor(i / 2) * SHEET.legendRow;
    ctx.fillStyle = playerColor(i);
    ctx.fillRect(x, y + 6, 12, 12);
    ctx.fillStyle = INK;
    ctx.font = `700 14px ${font}`;
    const total = num(p.total);
    const room = half - 24 - ctx.measureText(total).width - 10;
    ctx.textAlign = 'right';
    ctx.fillText(total, x + half - 8, y + 17);
    ctx.textAlign = 'left';
    ctx.font = `400 14px ${font}`;
    ctx.fillText(fit(ctx, p.name, room), x + 18, y + 17);
  });
}

/** The score sheet drawn on a canvas: the hands table, then the chart and its legend. */
function drawSheet(game) {
  const L = sheetLayout((game.players || []).length, (game.hands || []).length);
  const canvas = h('canvas', { width: L.pixels.width, height: L.pixels.height });
  const ctx = canvas.getContext('2d');
  ctx.scale(SCALE, SCALE);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, L.width, L.height);
  ctx.textBaseline = 'alphabetic';
  const font = fontStack();
  head(ctx, game, font);
  table(ctx, game, L, font);
  chart(ctx, game, L, font);
  legend(ctx, game, L, font);
  return canvas;
}

function canvasBlob(canvas, type, quality) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(type))), type, quality);
  });
}

/** The score sheet as a PNG file. */
export async function sheetImage(game) {
  const blob = await canvasBlob(drawSheet(game), 'image/png');
  return new File([blob], sheetFileName(game, 'png'), { type: 'image/png' });
}

/** The score sheet as a one-page PDF file (the same drawing, as a JPEG on the page). */
export async function sheetPdf(game) {
  const canvas = drawSheet(game);
  const jpeg = new Uint8Array(await (await canvasBlob(canvas, 'image/jpeg', 0.92)).arrayBuffer());
  const pdf = pdfOfJpeg(jpeg, canvas.width, canvas.height);
  return new File([pdf], sheetFileName(game, 'pdf'), { type: 'application/pdf' });
}

/** The score sheet as a CSV file. */
export function sheetCsv(game) {
  return new File([scoreSheetCsv(game)], sheetFileName(game, 'csv'), { type: 'text/csv' });
}

/**
 * Hand `file` to the phone's share sheet when it takes files, else download it.
 * Resolves to 'shared', 'cancelled' (the player closed the share sheet) or 'downloaded'.
 */
export async function shareFile(file, title) {
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title });
      return 'shared';
    } catch (e) {
      if (e?.name === 'AbortError') return 'cancelled';
      // not allowed here (no user gesture left, a policy): fall back to the download
    }
  }
  const url = URL.createObjectURL(file);
  const a = h('a', { href: url, download: file.name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return 'downloaded';
}
