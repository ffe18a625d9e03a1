import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shownTheme } from '../../scorekeeper/web/static/theme.js';

test('auto shows the phone’s own choice; a chosen theme overrides it', () => {
  assert.equal(shownTheme('auto', true), 'dark');
  assert.equal(shownTheme('auto', false), 'light');
  assert.equal(shownTheme('light', true), 'light');
  assert.equal(shownTheme('dark', false), 'dark');
});
