// Small DOM helpers. Every user-supplied string goes through textContent, never innerHTML.
import { language, t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(el, attrs, svg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') {
      if (svg) el.setAttribute('class', v);
      else el.className = v;
    } else if (k === 'testid') el.dataset.testid = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value' && !svg) el.value = v;
    else if (k === 'checked' && !svg) el.checked = !!v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
}

function appendChildren(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false || c === true) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** Create an HTML element: h('button', {class: 'btn', onclick}, 'Label'). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs, false);
  appendChildren(el, children);
  return el;
}

/** Create an SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs, true);
  appendChildren(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** Replace an element's children; null/false children are skipped (unlike replaceChildren). */
export function fill(el, ...children) {
  el.replaceChildren();
  appendChildren(el, children);
  return el;
}

/** Points with an explicit sign: +25, −10, 0. */
export function signed(n) {
  if (n == null || Number.isNaN(n)) return '–';
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return '0';
}

export function num(n) {
  if (n == null || Number.isNaN(n)) return '–';
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

export function debounce(fn, ms) {
  let t = null;
  const wrapped = (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
  wrapped.cancel = () => clearTimeout(t);
  return wrapped;
}

export function timeAgo(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const sec = (Date.now() - d.getTime()) / 1000;
  if (sec < 60) return t('time.now');
  if (sec < 3600) return t('time.min', { n: Math.floor(sec / 60) });
  if (sec < 86400) return t('time.hours', { n: Math.floor(sec / 3600) });
  return d.toLocaleDateString(language(), { day: 'numeric', month: 'short', year: 'numeric' });
}

/** Show a dialog as a modal; close it when its backdrop is tapped. */
export function openDialog(dlg) {
  if (!dlg.open) dlg.showModal();
  if (!dlg.dataset.wired) {
    dlg.dataset.wired = '1';
    // A tap on the backdrop or on a [data-close] button acts like Esc: a 'cancel' event
    // that a dialog with unsaved input can veto.
    const cancel = () => {
      const ev = new Event('cancel', { cancelable: true });
      if (dlg.dispatchEvent(ev)) dlg.close('cancel');
    };
    dlg.addEventListener('click', (ev) => {
      if (ev.target === dlg) cancel();
      const closer = ev.target.closest('[data-close]');
      if (closer && dlg.contains(closer)) {
        ev.preventDefault();
        cancel();
      }
    });
  }
}

export function closeDialog(dlg) {
  if (dlg.open) dlg.close();
}
