// Shared bits of page chrome: toast messages and the confirm / prompt dialog.
import { t } from './i18n.js';
import { $, h, openDialog } from './util.js';

let toastTimer = null;

/**
 * A short message at the top of the screen; kind = 'ok' | 'error'. `action`
 * ({label, testid, onclick}) adds a button (Redo after an undo), and keeps it up longer.
 */
export function toast(message, kind = 'ok', ms = 3200, action = null) {
  const el = $('#toast');
  el.textContent = message;
  if (action) {
    el.append(h('button', {
      type: 'button',
      class: 'toast-action',
      testid: action.testid,
      onclick: (ev) => {
        ev.stopPropagation();
        el.hidden = true;
        action.onclick();
      },
    }, action.label));
    ms = Math.max(ms, 8000);
  }
  el.className = `toast toast-${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, kind === 'error' ? Math.max(ms, 6000) : ms);
}

/**
 * Confirm (no `input`) or prompt (`input` = initial value).
 * `validate(value)` may return a promise; throwing shows the message and keeps the dialog open.
 * Resolves to the value (or true) on OK, null on cancel.
 */
export function ask({ title, text = '', okLabel = t('btn.ok'), danger = false, input, validate }) {
  const dlg = $('#ask');
  const form = $('#ask-form');
  const field = $('#ask-input');
  const err = $('#ask-error');
  const ok = $('#ask-ok');
  $('#ask-title').textContent = title;
  $('#ask-text').textContent = text;
  $('#ask-text').hidden = !text;
  ok.textContent = okLabel;
  ok.className = `btn ${danger ? 'btn-danger' : 'btn-primary'}`;
  err.hidden = true;
  field.hidden = input === undefined;
  if (input !== undefined) field.value = input;
  dlg.returnValue = '';

  return new Promise((resolve) => {
    let busy = false;
    const finish = (value) => {
      form.removeEventListener('submit', onSubmit);
      dlg.removeEventListener('close', onClose);
      if (dlg.open) dlg.close();
      resolve(value);
    };
    const onClose = () => finish(null);
    const onSubmit = async (ev) => {
      ev.preventDefault();
      const which = ev.submitter?.value || 'ok';
      if (which === 'cancel') return finish(null);
      if (busy) return undefined;
      const value = input === undefined ? true : field.value.trim();
      if (validate) {
        busy = true;
        ok.disabled = true;
        try {
          await validate(value);
        } catch (e) {
          err.textContent = e.message || String(e);
          err.hidden = false;
          return undefined;
        } finally {
          busy = false;
          ok.disabled = false;
        }
      }
      return finish(value);
    };
    form.addEventListener('submit', onSubmit);
    dlg.addEventListener('close', onClose);
    openDialog(dlg);
    if (input !== undefined) {
      field.focus();
      field.select();
    }
  });
}
