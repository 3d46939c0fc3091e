/**
 * A membership form printed from a word processor: fields typed as underscores, check boxes as ☐ and ☑ glyphs
 * (three options on one line, then four options each on a line of its own), a signature line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

async function form() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/check-box-form.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('a form with check boxes', () => {
  it('reads each option set on a line of its own as its own line, its box kept', async () => {
    const markdown = mainMarkdown(await form());
    expect(markdown).toContain(
      '## 3. How did you hear about us?\n\n☐ A friend or relative\n\n☑ Our website\n\n☐ A poster or leaflet\n\n☐ Other (please state): \\_',
    );
    // Options side by side on one line stay that line.
    expect(markdown).toContain('☐ Adult ($120 a year) ☐ Student ($60 a year) ☐ Family ($200 a year)');
  });
});
