// The final score sheet as files to share: CSV for a spreadsheet, and the layout of the
// picture (drawn by sheetimage.js). Pure (no DOM): unit-tested with Node's test runner.
import { t } from './i18n.js';

/** A spreadsheet opens a cell starting with these as a formula: keep names as text. */
const FORMULA = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(value) {
  let text = value == null ? '' : String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Each hand's points per player ('' where a player had no row: out of the game). */
export function sheetRows(game) {
  const names = (game.players || []).map((p) => p.name);
  return (game.hands || []).map((hand) => {
    const rows = hand.result?.players || [];
    return {
      n: hand.n,
      points: names.map((name) => {
        const r = rows.find((x) => x.name === name);
        return r && typeof r.points === 'number' ? r.points : null;
      }),
      totals: names.map((name) => {
        const r = rows.find((x) => x.name === name);
        return r && typeof r.total === 'number' ? r.total : null;
      }),
    };
  });
}

/**
 * The score sheet as CSV: a row per hand with each player's points, then the totals.
 * Numbers are plain (no sign or grouping) so a spreadsheet sums them; CRLF line ends and
 * a byte-order mark so spreadsheets read accented names as UTF-8.
 */
export function scoreSheetCsv(game) {
  const names = (game.players || []).map((p) => p.name);
  const lines = [[t('sheet.hand'), ...names]];
  for (const row of sheetRows(game)) lines.push([row.n, ...row.points]);
  lines.push([t('sheet.total'), ...(game.players || []).map((p) => p.total)]);
  return `\ufeff${lines.map((cells) => cells.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** The shared files' name: the variant and the game's number, no spaces. */
export function sheetFileName(game, ext) {
  return `scorekeeper-${String(game.variant || 'game').replace(/[^a-z0-9]+/gi, '-')}-${game.id}.${ext}`;
}

// The picture, in CSS pixels at scale 1 (drawn at SCALE for sharp text on phones).
export const SHEET = {
  width: 720,
  pad: 24,
  head: 84, // the title, the date and the winner
  row: 30, // a hand in the table
  tableHead: 40, // the players' names
  total: 36, // the totals row
  gap: 24,
  chartW: 672, // the chart (the page's 360 × 210 drawing, scaled to this width)
  legendRow: 26,
  handCol: 60,
};
export const SCALE = 2;

/** Where everything goes on the picture, from the number of players and hands. */
export function sheetLayout(players, hands) {
  const L = SHEET;
  const tableTop = L.pad + L.head;
  const tableH = L.tableHead + hands * L.row + L.total;
  const chartTop = tableTop + tableH + L.gap;
  const chartH = Math.round((L.chartW * 210) / 360);
  const legendTop = chartTop + chartH + 8;
  const legendH = Math.ceil(players / 2) * L.legendRow;
  const height = legendTop + legendH + L.pad;
  const colW = (L.width - 2 * L.pad - L.handCol) / Math.max(1, players);
  return {
    width: L.width, height, tableTop, tableH, chartTop, chartH, legendTop, colW,
    pixels: { width: L.width * SCALE, height: height * SCALE },
  };
}

/**
 * A one-page PDF holding a JPEG picture of `width` × `height` pixels: the JPEG's bytes go in
 * as they are (DCTDecode), on a page as wide as A4 and as tall as the picture needs.
 */
export function pdfOfJpeg(jpeg, width, height) {
  const enc = new TextEncoder();
  const parts = [];
  const offsets = [];
  let length = 0;
  const push = (chunk) => {
    const bytes = typeof chunk === 'string' ? enc.encode(chunk) : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  const obj = (n, body) => {
    offsets[n] = length;
    push(`${n} 0 obj\n${body}\nendobj\n`);
  };
  const pageW = 595.28; // A4's width in points
  const pageH = Math.round(((pageW * height) / width) * 100) / 100;
  push('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'); // a comment of high bytes: a binary file
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  obj(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageW} ${pageH}] `
    + '/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>');
  offsets[4] = length;
  push(`4 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} `
    + `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`);
  push(jpeg);
  push('\nendstream\nendobj\n');
  const draw = `q ${pageW} 0 0 ${pageH} 0 0 cm /Im0 Do Q`;
  obj(5, `<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
  const xref = length;
  const rows = offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(`xref\n0 ${offsets.length}\n0000000000 65535 f \n${rows}`
    + `trailer\n<< /Size ${offsets.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
