// The table's own decks: the choice on the new-game sheet, and the admin's decks sheet
// (what each deck has learned, enrolling one from photos (enrol.js), "Improve this deck"
// with its progress, and learning from confirmed scans: its switch and deleting them).
import { api, request } from './api.js';
import { DECK_NAME, closeEnrol, openEnrol } from './enrol.js';
import { language, t } from './i18n.js';
import { ask, toast } from './ui.js';
import { $, h, fill, num, openDialog } from './util.js';

const POLL_MS = 1000;
export const ADAPT_MINUTES = 5;

/** The decks a game can read with (not the broken ones), and the table's default. */
export async function usableDecks() {
  try {
    const list = await api.decks();
    return { ...list, decks: (list.decks || []).filter((d) => !d.broken) };
  } catch {
    return { decks: [], default: null };
  }
}

/**
 * The new-game sheet's deck choice, or null when the table has no decks. `value()` is what
 * the game is created with: a deck's name, or null for the shipped model.
 */
export function deckChoice(list, current) {
  if (!list?.decks?.length) return null;
  const names = list.decks.map((d) => d.name);
  const start = current !== undefined ? current : list.default;
  const select = h('select', { id: 'newgame-deck', class: 'input', testid: 'newgame-deck' },
    h('option', { value: '' }, t('newgame.deckGeneric')),
    names.map((n) => h('option', { value: n, selected: n === start }, n)));
  const el = h('label', { class: 'field', for: 'newgame-deck' },
    h('span', { class: 'field-label' }, t('newgame.deck')), select,
    h('span', { class: 'muted small' }, t('newgame.deckHint')));
  return { el, value: () => select.value || null };
}

const pct = (x) => new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 1 }).format(x);

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// ---- the decks sheet ----------------------------------------------------------------

let deckSheet = null; // the open sheet: {list, job, timer, els, view: 'list' | 'enrol'}

function modelLine(d) {
  if (!d.adapted) return t('decks.notAdapted');
  const c = d.check || {};
  if (typeof c.adapted === 'number' && typeof c.generic === 'number') {
    return t('decks.adapted', { adapted: pct(c.adapted), generic: pct(c.generic) });
  }
  return t('decks.adaptedPlain');
}

function deckCard(d) {
  if (d.broken) {
    return h('li', { class: 'deck-card', testid: `deck-${d.name}` },
      h('strong', {}, d.name), h('p', { class: 'error small' }, t('decks.broken', { error: d.broken })));
  }
  const running = deckSheet.job?.running;
  return h('li', { class: 'deck-card', testid: `deck-${d.name}` },
    h('div', { class: 'deck-head' }, h('strong', {}, d.name),
      deckSheet.list.default === d.name ? h('span', { class: 'tag tag-live' }, t('decks.default')) : null),
    h('p', { class: 'small', testid: `deck-examples-${d.name}` },
      t('decks.examples', { n: num(d.examples), learned: num(d.learned) })),
    h('p', { class: 'muted small', testid: `deck-model-${d.name}` }, modelLine(d)),
    // the generic second classifier beside the deck's (a newer one after an update)
    d.adapted && d.second
      ? h('p', { class: 'muted small', testid: `deck-second-${d.name}` },
        t(d.second_newer ? 'decks.secondNewer' : 'decks.second'))
      : null,
    h('div', { class: 'deck-actions' },
      h('button', {
        type: 'button',
        class: 'btn btn-primary',
        testid: `deck-improve-${d.name}`,
        disabled: !!running || !!deckSheet.list.adapt,
        onclick: () => improve(d.name),
      }, t('decks.improve', { n: ADAPT_MINUTES })),
      h('button', {
        type: 'button',
        class: 'btn btn-secondary',
        testid: `deck-enrol-${d.name}`,
        onclick: () => enrol(d.name),
      }, t((deckSheet.list.enrolling || []).includes(d.name) ? 'decks.enrolGoOn' : 'decks.enrolMore')),
      d.learned ? h('button', {
        type: 'button',
        class: 'btn btn-danger-ghost',
        testid: `deck-forget-${d.name}`,
        onclick: () => forget(d),
      }, t('decks.forget')) : null));
}

function jobPanel() {
  const job = deckSheet.job;
  if (!job || job.state === 'idle') return null;
  const stateText = job.state === 'failed'
    ? t('decks.failed', { message: job.message || '?' })
    : t(`decks.state.${job.state}`);
  return h('section', { class: 'deck-job', testid: 'deck-job', 'data-state': job.state, 'aria-live': 'polite' },
    h('div', { class: 'deck-head' },
      h('strong', {}, t('decks.job', { name: job.deck })),
      job.running ? h('span', { class: 'muted small', testid: 'deck-job-left' }, t('decks.left', { time: clock(job.left_s) })) : null),
    h('progress', {
      class: 'deck-progress',
      testid: 'deck-job-progress',
      max: '1',
      value: String(job.progress ?? 0),
      'aria-label': t('decks.job', { name: job.deck }),
    }),
    h('p', { class: 'small', testid: 'deck-job-state' }, stateText),
    // what it learns from, in numbers said as a player would (the run's own line is a
    // trainer's: "97 crops to learn from, 11 held back to check…")
    job.running && job.counts ? h('p', { class: 'muted small deck-job-line', testid: 'deck-job-line' },
      t('decks.counts', { learn: num(job.counts.learn), check: num(job.counts.check), others: num(job.counts.others) })) : null,
    job.running ? h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      testid: 'deck-job-cancel',
      onclick: cancel,
    }, t('decks.cancel')) : null);
}

/** The switch for learning from play, with what it has learned and "Delete all". */
function learningPanel() {
  const list = deckSheet.list;
  const on = !!list.learn_from_scans;
  const learned = list.decks.reduce((sum, d) => sum + (d.learned || 0), 0);
  return h('section', { class: 'deck-card', testid: 'deck-learning', 'aria-labelledby': 'deck-learning-title' },
    h('div', { class: 'deck-head' },
      h('strong', { id: 'deck-learning-title' }, t('decks.learnTitle')),
      h('button', {
        type: 'button',
        class: `toggle${on ? ' on' : ''}`,
        role: 'switch',
        'aria-checked': on ? 'true' : 'false',
        'aria-labelledby': 'deck-learning-title',
        testid: 'deck-learning-switch',
        onclick: () => setLearning(!on),
      }, h('span', { class: 'toggle-box', 'aria-hidden': 'true' }, on ? '✓' : ''), t(on ? 'decks.on' : 'decks.off'))),
    h('p', { class: 'muted small', testid: 'deck-learning-text' }, on
      ? t('decks.learnOn', { n: num(list.learned_max) })
      : t('decks.learnOff')),
    h('div', { class: 'deck-head' },
      h('span', { class: 'small', testid: 'deck-learned-total' }, t('decks.learnedTotal', { n: learned })),
      learned ? h('button', {
        type: 'button',
        class: 'btn btn-danger-ghost',
        testid: 'deck-forget-all',
        onclick: () => forgetAll(learned),
      }, t('decks.forgetAll')) : null));
}

function enrolling() {
  const names = (deckSheet.list.enrolling || []).filter((n) => !deckSheet.list.decks.some((d) => d.name === n));
  return names.map((name) => h('p', { class: 'deck-draft small', testid: `deck-draft-${name}` },
    t('decks.draft', { name }), ' ',
    h('button', { type: 'button', class: 'btn btn-small', testid: `deck-enrol-${name}`, onclick: () => enrol(name) }, t('decks.enrolGoOn'))));
}

function render() {
  if (deckSheet?.view !== 'list') return;
  const list = deckSheet.list;
  fill(deckSheet.els.body,
    list.adapt ? h('p', { class: 'muted small', testid: 'decks-cannot-adapt' }, t('decks.cannotAdapt', { why: list.adapt })) : null,
    jobPanel(),
    h('button', { type: 'button', class: 'btn btn-primary btn-block', testid: 'decks-enrol', onclick: enrolNew }, t('decks.enrolNew')),
    enrolling(),
    list.decks.length
      ? h('ul', { class: 'deck-list', testid: 'deck-list' }, list.decks.map(deckCard))
      : h('p', { class: 'muted', testid: 'decks-none' }, t('decks.none')),
    learningPanel());
}

async function refresh() {
  const mine = deckSheet;
  if (!mine) return;
  const [list, job] = await Promise.allSettled([api.decks(), api.adaptStatus()]);
  if (deckSheet !== mine) return;
  if (list.status === 'fulfilled') mine.list = list.value;
  if (job.status === 'fulfilled') mine.job = job.value;
  render();
  clearTimeout(mine.timer);
  if (mine.job?.running) mine.timer = setTimeout(refresh, POLL_MS);
}

async function improve(name) {
  try {
    deckSheet.job = await api.startAdapt(name, ADAPT_MINUTES);
  } catch (e) {
    toast(e.message, 'error');
  }
  refresh();
}

async function cancel() {
  try {
    deckSheet.job = await api.cancelAdapt();
  } catch (e) {
    toast(e.message, 'error');
  }
  refresh();
}

async function setLearning(on) {
  try {
    const r = await request('PUT', '/api/decks/learning', { on });
    if (deckSheet) deckSheet.list = { ...deckSheet.list, learn_from_scans: r.learn_from_scans };
  } catch (e) {
    toast(e.message, 'error');
  }
  refresh();
}

async function forgetAll(n) {
  const ok = await ask({
    title: t('decks.forgetAllTitle'),
    text: t('decks.forgetAllText', { n: num(n) }),
    okLabel: t('decks.forgetAll'),
    danger: true,
  });
  if (!ok || !deckSheet) return;
  let deleted = 0;
  try {
    for (const d of deckSheet.list.decks.filter((x) => x.learned)) deleted += (await api.deleteLearned(d.name)).deleted;
    toast(t('decks.forgot', { n: num(deleted) }));
  } catch (e) {
    toast(e.message, 'error');
  }
  refresh();
}

// ---- enrolling (enrol.js draws it in the sheet's body) ------------------------------

function showList() {
  closeEnrol();
  if (!deckSheet) return;
  deckSheet.view = 'list';
  render();
  refresh();
}

async function enrol(name) {
  if (!deckSheet) return;
  deckSheet.view = 'enrol';
  const camera = await api.camera().catch(() => null);
  if (deckSheet?.view !== 'enrol') return;
  openEnrol(deckSheet.els.body, name, {
    minutes: ADAPT_MINUTES,
    cannotAdapt: deckSheet.list.adapt,
    camera: !!camera && camera.state !== 'none',
    onBack: (err) => {
      if (err) toast(err.message, 'error');
      showList();
    },
    onAdapt: async (deck) => {
      showList();
      await improve(deck);
    },
  });
}

async function enrolNew() {
  const name = await ask({
    title: t('decks.enrolTitle'),
    text: t('decks.enrolText'),
    okLabel: t('decks.enrolStart'),
    input: '',
    validate: (value) => {
      if (!DECK_NAME.test(value)) throw new Error(t('decks.badName'));
    },
  });
  if (name) enrol(name);
}

async function forget(d) {
  const ok = await ask({
    title: t('decks.forgetTitle', { name: d.name }),
    text: t('decks.forgetText', { n: num(d.learned) }),
    okLabel: t('decks.forget'),
    danger: true,
  });
  if (!ok) return;
  try {
    const r = await api.deleteLearned(d.name);
    toast(t('decks.forgot', { n: num(r.deleted) }));
  } catch (e) {
    toast(e.message, 'error');
  }
  refresh();
}

/** The admin's decks sheet; it follows a run of "Improve this deck" while it is open. */
export function openDecks() {
  const dlg = $('#decks');
  const els = { body: h('div', { class: 'sheet-scroll', testid: 'decks-body' }, h('p', { class: 'muted' }, t('app.loading'))) };
  fill($('#decks-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'decks-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('decks.title')), h('div', { class: 'muted small' }, t('decks.sub')))),
    els.body);
  if (!dlg.dataset.wiredDecks) {
    dlg.dataset.wiredDecks = '1';
    dlg.addEventListener('close', () => {
      if (deckSheet) clearTimeout(deckSheet.timer);
      closeEnrol();
      deckSheet = null;
    });
  }
  if (deckSheet) clearTimeout(deckSheet.timer);
  closeEnrol();
  deckSheet = { list: { decks: [] }, job: null, timer: null, els, view: 'list' };
  openDialog(dlg);
  refresh();
}
