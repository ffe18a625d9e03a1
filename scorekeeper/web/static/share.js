// Sharing: the page's link and its QR code, and the score sheet as a picture, PDF or CSV.
import { api } from './api.js';
import { page } from './games.js';
import { t } from './i18n.js';
import { shareFile, sheetCsv, sheetImage, sheetPdf } from './sheetshare.js';
import { toast } from './ui.js';
import { $, h, openDialog } from './util.js';
import { variantLabel } from './variants.js';

let shared = null; // the address the open dialog shows, and Copy link copies

/** This page's address without the admin token, on `base` (another host) when given. */
function shareUrl(base) {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.delete('token');
  url.hash = hash.toString() ? `#${hash}` : '';
  if (!base) return url.toString();
  return new URL(url.pathname + url.search + url.hash, base).toString();
}

/** Whether the page was opened at this device's own address, which other phones cannot use. */
export function isLoopbackHost(host) {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\./.test(name);
}

function showAddress(url) {
  shared = url;
  $('#share-qr').src = api.qrUrl(url);
  $('#share-url').textContent = url;
}

/** Opened at 127.0.0.1 or localhost: say so, and show the server's network address instead
 * (a choice of them when it has several), or that it has none. */
async function loopbackSection() {
  const note = h('div', { class: 'share-loopback', testid: 'share-loopback', role: 'alert' },
    h('p', {}, t('share.loopback', { host: location.host })));
  $('#share .qr-box').before(note);
  let urls = [];
  try {
    urls = (await api.addresses()).urls || [];
  } catch {
    urls = [];
  }
  if (!note.isConnected) return;
  if (!urls.length) {
    note.append(h('p', { testid: 'share-no-lan' }, t('share.noLan')));
    return;
  }
  const bases = urls.map((u) => shareUrl(u));
  showAddress(bases[0]);
  note.append(h('p', { testid: 'share-lan' }, t('share.lanOffer')));
  if (bases.length > 1) {
    note.append(h('div', { class: 'share-choices' }, bases.map((u) => h('button', {
      type: 'button', class: 'btn btn-small', testid: 'share-address', onclick: () => showAddress(u),
    }, new URL(u).host))));
  }
}

/** The score sheet's part of the share dialog: a picture or CSV of the game on screen. */
function sheetSection() {
  const g = page.game;
  const status = h('p', { class: 'muted small sheet-status', testid: 'sheet-status', role: 'status' });
  const send = async (btn, make) => {
    btn.disabled = true;
    status.textContent = t('sheet.making');
    try {
      const file = await make(g);
      const how = await shareFile(file, t('sheet.fileTitle', { variant: variantLabel(g.variant) }));
      status.textContent = how === 'cancelled' ? '' : t(how === 'shared' ? 'sheet.shared' : 'sheet.downloaded', { name: file.name });
    } catch (e) {
      status.textContent = t('sheet.failed', { error: e.message });
    } finally {
      btn.disabled = false;
    }
  };
  const image = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-image', onclick: () => send(image, sheetImage) }, t('sheet.image'));
  const pdf = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-pdf', onclick: () => send(pdf, sheetPdf) }, t('sheet.pdf'));
  const csv = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-csv', onclick: () => send(csv, sheetCsv) }, t('sheet.csv'));
  return h('section', { id: 'sheet-share', class: 'sheet-share', testid: 'sheet-share', 'aria-labelledby': 'sheet-share-title' },
    h('h3', { id: 'sheet-share-title' }, g.game_over ? t('sheet.titleFinal') : t('sheet.title')),
    h('p', { class: 'muted small' }, t('sheet.text')),
    h('div', { class: 'sheet-buttons' }, image, pdf, csv),
    status);
}

export function openShare({ sheet = false } = {}) {
  showAddress(shareUrl());
  $('#share .share-loopback')?.remove();
  if (isLoopbackHost(location.hostname)) loopbackSection();
  $('#sheet-share')?.remove();
  const section = page.game ? sheetSection() : null;
  if (section) $('#share .modal-actions').before(section);
  openDialog($('#share'));
  if (sheet && section) {
    section.scrollIntoView({ block: 'nearest' });
    $('[data-testid="sheet-image"]', section).focus();
  }
}

export async function copyShare() {
  const url = shared || shareUrl();
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // Plain-http LAN pages have no clipboard API: fall back to a selected textarea.
    const ta = h('textarea', { style: 'position:fixed;opacity:0' }, url);
    $('#share').append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  toast(t('toast.copied'));
}
