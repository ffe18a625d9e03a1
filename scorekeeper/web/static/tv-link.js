// "Show on a TV": the TV view's read-only link (no token, whoever opens it), with its QR code
// for a TV's browser and a link to open it here.
import { api } from './api.js';
import { t } from './i18n.js';
import { isLoopbackHost } from './share.js';
import { $, fill, h, openDialog } from './util.js';

/** The TV view's address: this server's, or its network address when opened at localhost. */
async function tvUrl() {
  if (!isLoopbackHost(location.hostname)) return new URL('/tv', location.origin).toString();
  try {
    const urls = (await api.addresses()).urls || [];
    if (urls.length) return new URL('/tv', urls[0]).toString();
  } catch {
    // no network address known: this one still opens here
  }
  return new URL('/tv', location.origin).toString();
}

export async function openTvLink() {
  const dlg = $('#tvlink');
  const url = await tvUrl();
  fill($('#tvlink-body'),
    h('h2', {}, t('tv.linkTitle')),
    h('p', { class: 'muted' }, t('tv.linkText')),
    h('div', { class: 'qr-box' }, h('img', { src: api.qrUrl(url), alt: t('tv.qr'), width: 240, height: 240, testid: 'tvlink-qr' })),
    h('p', { class: 'share-url', testid: 'tvlink-url' }, url),
    h('div', { class: 'modal-actions' },
      h('a', { class: 'btn btn-secondary', href: url, target: '_blank', rel: 'noopener', testid: 'tvlink-open' }, t('tv.open')),
      h('button', { class: 'btn btn-primary', type: 'button', 'data-close': true, testid: 'tvlink-close' }, t('btn.done'))));
  openDialog(dlg);
}
