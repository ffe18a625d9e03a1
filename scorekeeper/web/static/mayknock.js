// "May I knock?" on a player's own phone (Chicago): a photo of the fanned hand, or the cards
// tapped in, checked by the server; the answer shows here only and nothing is kept.
import { api } from './api.js';
import { JOKER, chip, chipRow, deckRules, pickerGrid } from './cards.js';
import { t } from './i18n.js';
import { keep, kept } from './kept.js';
import { knockVerdict } from './knock.js';
import { icon } from './icons.js';
import { knockAsScan } from './knock-check.js';
import { shrinkPhoto } from './photo-shrink.js';
import { photoInput, scanHint } from './scan.js';
import { $, h, fill, num, openDialog } from './util.js';
import { VARIANTS } from './variants.js';

const ME_KEY = 'scorekeeper.me'; // who this phone's player is, to ask quicker next time
let mayKnock = null; // the open check

function remembered() {
  return kept(ME_KEY);
}

function remember(name) {
  keep(ME_KEY, name);
}

/** A whole hand of the game's variant: {cards, ender}. */
function handSize() {
  return VARIANTS[mayKnock.game.variant]?.handSize || {};
}

async function ask(body) {
  const mine = mayKnock;
  mine.busy = true;
  mine.error = null;
  render();
  try {
    const answer = body instanceof File
      ? await api.knockCheck(mine.game.id, mine.player, await shrinkPhoto(body))
      : await api.knockCheck(mine.game.id, mine.player, null, body);
    if (mayKnock !== mine) return;
    mine.answer = answer;
    // a photo's cards replace those shown before (an earlier photo's, or tapped): never added
    if (body instanceof File) mine.cards = (answer.cards || []).slice(0, handSize().ender || 8);
  } catch (e) {
    if (mayKnock !== mine) return;
    mine.error = e;
  }
  mine.busy = false;
  render();
}

function whoPicker() {
  const standing = (mayKnock.game.players || []).filter((p) => !p.eliminated);
  return h('label', { class: 'field', for: 'mk-who' },
    h('span', { class: 'field-label' }, t('mayknock.whose')),
    h('select', {
      id: 'mk-who',
      class: 'input',
      testid: 'mayknock-player',
      onchange: (ev) => {
        mayKnock.player = ev.target.value;
        remember(mayKnock.player);
        mayKnock.answer = null;
        render();
      },
    }, standing.map((p) => h('option', { value: p.name, selected: p.name === mayKnock.player }, p.name))));
}

function tapper() {
  const { copies } = deckRules(mayKnock.game.variant, mayKnock.game.settings);
  const most = handSize().ender || 8;
  const size = handSize().cards || 7;
  const missing = Math.max(0, size - mayKnock.cards.length);
  const counts = new Map();
  for (const c of mayKnock.cards) counts.set(c, (counts.get(c) || 0) + 1);
  return h('div', { class: 'mk-tap' },
    h('div', { class: 'zone-cards', testid: 'mayknock-cards' },
      mayKnock.cards.length
        ? mayKnock.cards.map((c, i) => chip(c, {
          testid: `mayknock-chip-${c}`,
          onclick: () => {
            mayKnock.cards.splice(i, 1);
            mayKnock.answer = null;
            render();
          },
        }))
        : h('span', { class: 'zone-empty' }, t('mayknock.tapBelow'))),
    h('div', { class: 'picker' }, ...pickerGrid({
      suit: mayKnock.suit,
      prefix: 'mk-',
      onSuit: (suit) => {
        mayKnock.suit = suit;
        render();
      },
      onPick: (code) => {
        if (code === JOKER || mayKnock.cards.length >= most || (counts.get(code) || 0) >= copies) return;
        mayKnock.cards.push(code);
        mayKnock.answer = null;
        render();
      },
      state: (code) => ({
        disabled: mayKnock.cards.length >= most || (counts.get(code) || 0) >= copies,
        badge: counts.get(code) ? `${counts.get(code)}/${copies}` : null,
      }),
    })),
    h('button', {
      type: 'button',
      class: 'btn btn-primary btn-block',
      testid: 'mayknock-check',
      disabled: mayKnock.busy || missing > 0,
      'aria-describedby': missing > 0 ? 'mayknock-why' : null,
      onclick: () => ask({ cards: [...mayKnock.cards] }),
    }, t('mayknock.check', { n: mayKnock.cards.length })),
    // a greyed button says why, as the photo's partial read does ("tap in the 2 missing")
    missing > 0
      ? h('p', { id: 'mayknock-why', class: 'muted small mk-why', testid: 'mayknock-why', role: 'status' },
        t('mayknock.missing', { n: missing, size }))
      : null);
}

function verdict() {
  if (mayKnock.busy) {
    return h('div', { class: 'verdict busy', testid: 'mayknock-verdict', 'data-legal': '' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('mayknock.checking'));
  }
  if (mayKnock.error) {
    return h('div', { class: 'mk-error', role: 'alert' },
      h('p', { class: 'scan-error-text', testid: 'mayknock-error' }, mayKnock.error.message),
      h('p', { class: 'muted small' }, mayKnock.error.status === 429 ? t('mayknock.wait') : scanHint(mayKnock.error)));
  }
  const a = mayKnock.answer;
  if (!a) return null;
  const v = knockVerdict(knockAsScan(a), undefined, mayKnock.game.variant);
  const cls = v.legal === true ? 'legal' : v.legal === false ? 'illegal' : 'unknown';
  return h('div', { class: 'mk-answer', 'aria-live': 'polite' },
    h('div', { class: `verdict ${cls}`, testid: 'mayknock-verdict', 'data-legal': v.legal == null ? '' : String(v.legal) },
      h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, v.legal === true ? '✓' : v.legal === false ? '✗' : '?'),
      h('span', {}, v.head)),
    v.text ? h('p', { class: 'muted small verdict-text' }, v.text) : null,
    a.legal == null ? null : h('div', { class: 'kv', testid: 'mayknock-numbers' },
      h('span', {}, t('mayknock.limit')), h('strong', {}, a.limit > 0 ? num(a.limit) : t('kv.noKnock')),
      h('span', {}, t('kv.deadwood')), h('strong', {}, num(a.deadwood))),
    (a.melds || []).length
      ? h('div', { class: 'kline', testid: 'mayknock-melds' }, h('span', { class: 'hi-k' }, t('kv.melds')),
        h('span', { class: 'hi-melds' }, a.melds.map((m) => chipRow(m))))
      : null,
    a.legal != null && (a.unmelded || []).length
      ? h('div', { class: 'kline', testid: 'mayknock-deadwood' }, h('span', { class: 'hi-k' }, t('kv.deadwoodCards')), chipRow(a.unmelded))
      : null,
    a.dropped ? h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.eighth')), chipRow([a.dropped]), h('span', { class: 'muted small' }, t('kv.notCounted'))) : null,
    a.legal == null && (a.count || (a.unread || []).length) ? partial(a) : null);
}

/** A photo that read part of a hand, or saw a card it could not read: what it read, on the
 * photo (each card not read marked "?") and as cards, and two ways on (take it again, or tap
 * in the rest starting from the cards read). */
function partial(a) {
  const tapRest = (extra = []) => {
    mayKnock.cards = [...(a.cards || []), ...extra].slice(0, handSize().ender || 8);
    mayKnock.tapping = true;
    mayKnock.answer = null;
    render();
  };
  return h('div', { class: 'mk-partial', testid: 'mayknock-partial' },
    a.image ? h('img', { class: 'mk-photo', src: a.image, alt: t('mayknock.read'), testid: 'mayknock-image' }) : null,
    h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('mayknock.read')),
      h('span', { testid: 'mayknock-read' }, chipRow(a.cards || []))),
    (a.maybe || []).length
      ? h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('mayknock.maybe')),
        h('span', { class: 'zone-cards' }, a.maybe.map((c) => chip(c, { testid: `mayknock-maybe-${c}`, onclick: () => tapRest([c]) }))))
      : null,
    h('div', { class: 'mk-ways' },
      h('button', { type: 'button', class: 'btn btn-secondary', testid: 'mayknock-retake', onclick: () => mayKnock.input.click() }, icon('photo'), t('mayknock.retake')),
      h('button', { type: 'button', class: 'btn btn-secondary', testid: 'mayknock-add', onclick: () => tapRest() }, t('mayknock.addMissing'))));
}

function render() {
  if (!mayKnock) return;
  const photo = h('button', {
    type: 'button', class: 'btn btn-secondary', testid: 'mayknock-photo', disabled: mayKnock.busy,
    onclick: () => mayKnock.input.click(),
  }, icon('photo'), t('mayknock.photo'));
  const tap = h('button', {
    type: 'button', class: `btn btn-secondary${mayKnock.tapping ? ' active' : ''}`, testid: 'mayknock-tap',
    'aria-pressed': mayKnock.tapping ? 'true' : 'false',
    onclick: () => {
      mayKnock.tapping = !mayKnock.tapping;
      render();
    },
  }, t('mayknock.tap'));
  fill($('#mayknock-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'mayknock-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', { testid: 'mayknock-title' }, t('mayknock.title')),
        h('div', { class: 'muted small' }, t('mayknock.private')))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      whoPicker(),
      h('div', { class: 'mk-ways' }, photo, tap),
      verdict(),
      mayKnock.tapping ? tapper() : null,
      mayKnock.input));
}

/** Open the check for `game` (Chicago); the player is the one this phone asked for last. */
export function openMayKnock(game) {
  const standing = (game.players || []).filter((p) => !p.eliminated).map((p) => p.name);
  const me = remembered();
  mayKnock = {
    game,
    player: standing.includes(me) ? me : standing[0],
    cards: [],
    suit: 'S',
    tapping: false,
    busy: false,
    error: null,
    answer: null,
  };
  mayKnock.input = photoInput({ testid: 'mayknock-file', onFile: (file) => ask(file) });
  const dlg = $('#mayknock');
  if (!dlg.dataset.wiredMayKnock) {
    dlg.dataset.wiredMayKnock = '1';
    dlg.addEventListener('close', () => {
      mayKnock = null; // the hand is secret: forget it as soon as the sheet closes
      fill($('#mayknock-body'));
    });
  }
  render();
  openDialog(dlg);
}
