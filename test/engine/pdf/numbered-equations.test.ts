/**
 * A paper in two ragged columns whose display equations carry their numbers flush right at the column's edge,
 * `(1)` to `(3)`, close to the gutter: the columns read one after the other, each equation with its number.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

async function paper() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/numbered-equations.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('numbered equations in a two-column paper', () => {
  it('reads the left column whole, each equation with its number, before the right column', async () => {
    const markdown = mainMarkdown(await paper());
    expect(markdown).toContain('Customers arrive at a rate λ and are served at a rate μ. The share of time the server is busy is\n\nρ = λ / μ, (1)');
    expect(markdown).toContain('L = ρ² / (1 - ρ). (2)');
    expect(markdown).toContain("The mean time a customer waits follows from Little's law,\n\nW = L / λ. (3)\n\n## 3 Results\n\nWe measured arrival and service rates at four counters");
  });
});
