// The score sheet's CSV, exactly, and the picture's layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import './setup.mjs';
import { setLanguage } from '../../scorekeeper/web/static/i18n.js';
import {
  SCALE, csvField, scoreSheetCsv, sheetFileName, sheetLayout,
} from '../../scorekeeper/web/static/sheet.js';

const hand = (n, rows) => ({ n, result: { players: rows.map(([name, points, total]) => ({ name, points, total })) } });

const GAME = {
  id: 7,
  variant: 'rummy500',
  players: [{ name: 'Ann', total: 95 }, { name: 'Bo, "the bear"', total: -20 }, { name: '=SUM(A1)', total: 40 }],
  hands: [
    hand(1, [['Ann', 60, 60], ['Bo, "the bear"', -20, -20], ['=SUM(A1)', 0, 0]]),
    hand(2, [['Ann', 35, 95], ['=SUM(A1)', 40, 40]]), // Bo had no row: out of the game
  ],
};

test('the CSV holds each hand per player, then the totals, quoted where it must be', () => {
  setLanguage('en');
  assert.equal(scoreSheetCsv(GAME), [
    '\ufeffHand,Ann,"Bo, ""the bear""",\'=SUM(A1)',
    '1,60,-20,0',
    '2,35,,40',
    'Total,95,-20,40',
    '',
  ].join('\r\n'));
});

test('the CSV speaks the page language in its two words', () => {
  setLanguage('es');
  const lines = scoreSheetCsv(GAME).split('\r\n');
  assert.ok(lines[0].startsWith('\ufeffMano,'));
  assert.ok(lines[3].startsWith('Total,'));
  setLanguage('pt');
  assert.ok(scoreSheetCsv(GAME).startsWith('\ufeffMão,'));
  setLanguage('en');
});

test('a game without hands is a header and the totals', () => {
  const game = { id: 1, variant: 'chicago', players: [{ name: 'A', total: 0 }, { name: 'B', total: 0 }], hands: [] };
  assert.equal(scoreSheetCsv(game), '\ufeffHand,A,B\r\nTotal,0,0\r\n');
});

test('fields: numbers bare, text quoted only when needed, formulas kept as text', () => {
  assert.equal(csvField(-5), '-5');
  assert.equal(csvField(null), '');
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a\nb'), '"a\nb"');
  assert.equal(csvField('+1'), "'+1");
  assert.equal(csvField('@x'), "'@x");
});

test('file names carry the variant and the game', () => {
  assert.equal(sheetFileName({ id: 3, variant: 'gin' }, 'png'), 'scorekeeper-gin-3.png');
});

test('the picture grows a row per hand and a legend row per two players', () => {
  const a = sheetLayout(2, 0);
  const b = sheetLayout(2, 5);
  const c = sheetLayout(3, 5);
  assert.equal(a.width, 720);
  assert.equal(b.height - a.height, 5 * 30);
  assert.equal(c.height - b.height, 26);
  assert.deepEqual(b.pixels, { width: 720 * SCALE, height: b.height * SCALE });
  assert.ok(b.chartTop > b.tableTop + b.tableH && b.legendTop > b.chartTop + b.chartH);
  assert.equal(sheetLayout(8, 1).colW, (720 - 48 - 60) / 8);
});

test('the PDF is one page whose cross-reference table points at each object', async () => {
  const { pdfOfJpeg } = await import('../../scorekeeper/web/static/sheet.js');
  const jpeg = Uint8Array.from([0xff, 0xd8, 0x00, 0x0a, 0xff, 0xd9]); // the bytes go in as they are
  const pdf = pdfOfJpeg(jpeg, 1440, 2880);
  const text = new TextDecoder('latin1').decode(pdf);
  assert.ok(text.startsWith('%PDF-1.4\n'));
  assert.ok(text.endsWith('%%EOF\n'));
  const xref = Number(text.match(/startxref\n(\d+)\n/)[1]);
  assert.equal(text.slice(xref, xref + 5), 'xref\n');
  const rows = text.slice(xref).split('\n').slice(3, 8);
  rows.forEach((row, i) => {
    const at = Number(row.slice(0, 10));
    assert.equal(text.slice(at, at + 8), `${i + 1} 0 obj\n`);
  });
  assert.match(text, /\/MediaBox \[0 0 595\.28 1190\.56\]/); // A4 wide, as tall as the picture
  assert.match(text, /\/Width 1440 \/Height 2880 .*\/Filter \/DCTDecode \/Length 6 >>/);
  const start = text.indexOf('stream\n', text.indexOf('4 0 obj')) + 7;
  assert.deepEqual([...pdf.slice(start, start + 6)], [...jpeg]);
});
