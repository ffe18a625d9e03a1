// A game's rules: their fields (for a new game and the rules sheet), and the rules sheet
// (the settings, then the rules explained: rulesheet.js).
import { api } from './api.js';
import { page, refreshGame } from './games.js';
import { t } from './i18n.js';
import { checkNumber } from './messages.js';
import { rulesSheetEl } from './rulesheet.js';
import { toast } from './ui.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';
import { VARIANTS, variantLabel } from './variants.js';

export function settingsFields(variant, values, { disabled = false } = {}) {
  const defs = VARIANTS[variant]?.settings || [];
  const getters = [];
  const fields = defs.map((d) => {
    const id = `set-${d.key}`;
    const cur = values[d.key] !== undefined ? values[d.key] : d.options ? d.options[0][0] : d.default;
    let control;
    if (d.options) {
      control = h('select', { id, class: 'input', testid: `setting-${d.key}`, disabled },
        d.options.map(([v, label], i) => h('option', { value: String(i), selected: String(v) === String(cur) }, label)));
      getters.push(() => [d.key, d.options[Number(control.value)][0]]);
    } else {
      control = h('input', {
        id,
        class: 'input',
        type: 'number',
        inputmode: 'numeric',
        min: d.min,
        step: 1,
        placeholder: d.placeholder || '',
        value: cur == null ? '' : String(cur),
        testid: `setting-${d.key}`,
        disabled,
      });
      getters.push(() => {
        const raw = control.value.trim();
        if (raw === '' && d.default != null) return [d.key, d.default];
        const got = checkNumber(d.label, raw, { min: d.min, optional: d.default == null });
        if (got.error) throw new Error(got.error);
        return [d.key, got.value];
      });
    }
    return h('label', { class: 'field', for: id }, h('span', { class: 'field-label' }, d.label), control);
  });
  const read = () => Object.fromEntries(getters.map((g) => g()));
  return { el: h('div', { class: 'fields' }, fields), read };
}

export function openSettings() {
  const g = page.game;
  if (!g) return;
  closeDialog($('#menu'));
  const dlg = $('#settings');
  const ui = settingsFields(g.variant, g.settings || {}, { disabled: !page.admin });
  const err = h('p', { class: 'error error-box', testid: 'settings-error', role: 'alert', hidden: true });
  const saveBtn = h('button', {
    type: 'button',
    class: 'btn btn-primary btn-grow',
    testid: 'settings-save',
    onclick: async () => {
      saveBtn.disabled = true;
      try {
        await api.settings(g.id, ui.read(), g.seq);
        dlg.close('saved');
        toast(t('toast.rulesUpdated'));
        refreshGame();
      } catch (e) {
        err.textContent = e.message;
        err.hidden = false;
      } finally {
        saveBtn.disabled = false;
      }
    },
  }, t('rules.save'));
  fill($('#settings-form'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'settings-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('rules.title')), h('div', { class: 'muted small' }, variantLabel(g.variant)))),
    h('div', { class: 'sheet-scroll', tabindex: '0' }, ui.el, err, rulesSheetEl(g.id)),
    page.admin ? h('div', { class: 'sheet-foot' }, saveBtn) : null,
  );
  openDialog(dlg);
}
