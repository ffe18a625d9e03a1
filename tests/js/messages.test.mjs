import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { ApiError, describe } from '../../scorekeeper/web/static/api.js';
import { cardText } from '../../scorekeeper/web/static/cards.js';
import { CATALOGUES, setLanguage, t } from '../../scorekeeper/web/static/i18n.js';
import {
  cameraText, changeTexts, checkNumber, missingEnder, missingPoints, refusalText,
  saveErrorText,
} from '../../scorekeeper/web/static/messages.js';
import { setVariants } from '../../scorekeeper/web/static/variants.js';
import { SERVED } from './setup.mjs';

function speak(lang) {
  setLanguage(lang);
  setVariants(SERVED); // the variants' words are taken in the language of the moment
}

test('a refusal is said from its code and params, in the page language', () => {
  speak('en');
  const hand = { code: 'chicago_hand_size', params: { hand: 4, player: 'Ann', n: 3 }, detail: 'x' };
  assert.equal(refusalText(hand),
    'Hand 4: Ann holds 3 cards; a Chicago hand is 7 (8 for the player who knocked or went rummy).');
  speak('es');
  assert.equal(refusalText(hand),
    'Mano 4: Ann tiene 3 cartas; una mano de Chicago es de 7 (8 para quien cerró o hizo rummy).');
  speak('pt-BR');
  assert.equal(refusalText({ ...hand, params: { ...hand.params, n: 1 } }),
    'Mão 4: Ann tem 1 carta; uma mão de Chicago é de 7 (8 para quem bateu ou fez rummy).');
});

test('cards, variants, settings and numbers as the page names them', () => {
  speak('pt-PT');
  assert.equal(refusalText({ code: 'out_holds_cards', params: { player: 'Ann', cards: ['KD', '8D', 'JK'] } }),
    'Ann saiu mas ainda tem rei de ouros, 8♦, curinga.');
  speak('en');
  assert.equal(refusalText({ code: 'card_too_many', params: { card: 'QS', count: 3, allowed: 2, decks: 2 } }),
    'Queen of spades appears 3 times, but the decks hold only 2.');
  assert.equal(refusalText({ code: 'no_knock', params: { player: 'Bob', variant: 'rummy10' } }),
    'Bob: nobody knocks in Rummy 10-card.');
  assert.equal(refusalText({
    code: 'settings_invalid',
    params: {
      variant: 'chicago',
      problems: [{ setting: 'knock_penalty', reason: 'whole' }, { setting: 'knock_penalty', reason: 'ge', ge: 0 }],
      more: 2,
    },
  }), 'Knock penalty: must be a whole number; Knock penalty: must be 0 or more; and 2 more problems.');
  speak('es');
  assert.equal(refusalText({ code: 'photo_too_large', params: { width: 8000, height: 6000, max: 24.5 } }),
    'La foto tiene 8000 × 6000 píxeles; se leen como mucho 24,5 megapíxeles.');
  // a card the rules could not read is shown as it was sent, said of its player
  assert.equal(refusalText({ code: 'card_unknown', params: { card: 'ZZ', player: 'Bo', hand: 2 } }),
    'Mano 2: Bo: «ZZ» no es una carta.');
});

test('an unknown code shows the server detail, and no body says nothing', () => {
  speak('es');
  assert.equal(refusalText({ code: 'from_the_future', params: {}, detail: 'dicho por el servidor' }),
    'dicho por el servidor');
  assert.equal(refusalText({ detail: 'sin código' }), 'sin código');
  assert.equal(refusalText(null), null);
  assert.equal(describe(404, null), 'No encontrado.');
  speak('en');
});

test('every code the server lists has words in every catalogue', () => {
  const codes = JSON.parse(readFileSync(new URL('./refusal-codes.json', import.meta.url), 'utf8'));
  assert.ok(codes.length > 80, `only ${codes.length} codes: is the list broken?`);
  for (const [lang, cat] of Object.entries(CATALOGUES)) {
    const missing = codes.filter((c) => !(`refusal.${c}` in cat) && !(`refusal.${c}.other` in cat));
    assert.deepEqual(missing, [], `${lang} cannot say these refusals`);
  }
});

test('who ended the hand is asked for before a preview', () => {
  assert.match(missingEnder('chicago', [{ knocked: false }, {}]), /knocked or went rummy/);
  assert.equal(missingEnder('chicago', [{ rummy: true }, {}]), null);
  assert.match(missingEnder('rummy', [{}, {}]), /went out/);
  assert.equal(missingEnder('rummy10', [{}, {}]), null); // the stock ran out: nobody went out
  assert.equal(missingEnder('rummy500', [{}, {}]), null);
});

test('numbers as typed', () => {
  assert.deepEqual(checkNumber('Target', '150', { min: 1 }), { value: 150 });
  assert.equal(checkNumber('Target', '1.5', { min: 1 }).error, 'Target: must be a whole number.');
  assert.equal(checkNumber('Target', '0', { min: 1 }).error, 'Target: must be 1 or more.');
  assert.deepEqual(checkNumber('Hands', '', { optional: true }), { value: null });
  assert.equal(checkNumber('Target', '').error, 'Target: enter a number.');
});

test('points typed instead of cards are asked for, whole and not negative', () => {
  const typed = (name, fields) => ({ name, typed: true, held: '', melded: '', ...fields });
  assert.equal(missingPoints('rummy', [{ name: 'Ann', went_out: true }, typed('Bob', { held: '12' })]), null);
  assert.equal(missingPoints('rummy', [typed('Ann', { went_out: true }), { name: 'Bob' }]), null);
  assert.equal(missingPoints('chicago', [typed('Ann', { knocked: true })]), 'Type Ann’s points.');
  assert.equal(missingPoints('chicago', [typed('Ann', { held: '0' })]), null);
  assert.equal(missingPoints('chicago', [typed('Ann', { held: '2.5' })]),
    'Ann: Deadwood (points not in melds): must be a whole number.');
  assert.equal(missingPoints('rummy500', [typed('Ann', { held: '-5' })]),
    'Ann: Points left in hand: must be 0 or more.');
  assert.equal(missingPoints('rummy500', [typed('Ann', { melded: '40' })]), null);
  assert.equal(missingPoints('rummy500', [typed('Ann', { went_out: true })]), 'Type Ann’s points.');
  assert.equal(missingPoints('rummy', [{ name: 'Ann', held: '' }]), null); // cards, not points
});

test('a card in a sentence: a number card by its symbol, a face card in words', () => {
  speak('pt-BR');
  assert.deepEqual(['KD', '8D', '10H', 'AS', 'JK'].map(cardText),
    ['rei de ouros', '8♦', '10♥', 'ás de espadas', 'curinga']);
  speak('en');
  assert.equal(t('knock.eighth', { card: cardText('KD') }), ' · 8th card not counted: king of diamonds');
});

test('what changed on another phone is said in the page language', () => {
  speak('es');
  const moved = {
    code: 'game_changed',
    changes: ['hand 3 was saved from another phone', 'Ann was renamed Ana from another phone'],
    params: { seq: 5, changes: [{ change: 'hand', hand: 3 }, { change: 'rename', old: 'Ann', new: 'Ana' }] },
  };
  assert.deepEqual(changeTexts(moved),
    ['La mano 3 se guardó desde otro teléfono', 'Ann pasó a llamarse Ana desde otro teléfono']);
  assert.deepEqual(changeTexts({ changes: ['from an older server'] }), ['from an older server']);
  speak('en');
});

test('the camera status is said from its reason code, not the server\'s English', () => {
  const none = { state: 'none', reason: 'no_camera', error: "no camera configured (camera spec 'none')" };
  speak('en');
  assert.equal(cameraText(none), t('camera.reason.no_camera'));
  for (const lang of ['es', 'pt-BR', 'pt-PT']) {
    speak(lang);
    const said = cameraText(none);
    assert.equal(said, CATALOGUES[lang]['camera.reason.no_camera']);
    assert.notEqual(said, none.error, lang);
    assert.notEqual(said, CATALOGUES.en['camera.reason.no_camera'], `${lang} repeats English`);
  }
  // a reason this page does not know yet: the server's words rather than nothing
  assert.equal(cameraText({ state: 'lost', reason: 'melted', error: 'camera melted' }), 'camera melted');
  assert.equal(cameraText({ state: 'ok', reason: null, error: null }), null);
  speak('en');
});

test('a save with no answer says the hand may be saved already, not just "cannot reach"', () => {
  for (const lang of ['en', 'es', 'pt-PT', 'pt-BR']) {
    speak(lang);
    const lost = new ApiError(t('net.unreachable'), 0);
    const said = saveErrorText(lost);
    assert.notEqual(said, lost.message, lang);
    assert.equal(said, t('net.noAnswerSave'), lang);
    if (lang !== 'en') assert.notEqual(said, CATALOGUES.en['net.noAnswerSave'], `${lang} repeats English`);
  }
  assert.notEqual(CATALOGUES['pt-BR']['net.noAnswerSave'], CATALOGUES['pt-PT']['net.noAnswerSave']);
  speak('en');
  assert.match(saveErrorText(new ApiError('x', 0)), /may already be saved.*not be counted twice/);
  // an answer that came (a refusal, a server error) is said as it was
  const refused = new ApiError(describe(500, null), 500);
  assert.equal(saveErrorText(refused), 'Server error (500).');
  assert.equal(saveErrorText(new TypeError('boom')), 'boom');
});
