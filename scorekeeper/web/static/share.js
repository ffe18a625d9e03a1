// Sharing: the page's link and its QR code, and the score sheet as a picture, PDF or CSV.
import { api } from './api.js';
import { page } from './games.js';
import { t } from './i18n.js';
import { shareFile, sheetCsv, sheetImage, sheetPdf } from './sheetshare.js';
import { toast } from './ui.js';
import { $, h, openDialog } from './util.js';
import { variantLabel } from './variants.js';

function shareUrl() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.delete('token');
  url.hash = hash.toString() ? `#${hash}` : '';
  return url.toString();
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
  const url = shareUrl();
  $('#share-qr').src = api.qrUrl(url);
  $('#share-url').textContent = url;
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
  const url = shareUrl();
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
