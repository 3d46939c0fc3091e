/**
 * Pictures of every format the engine keeps in its result when `removeBase64Images` is false, lifted out as bytes
 * (as the engine's threads do for `--images`) and placed as files: each document built with known pictures gives
 * exactly those bytes, once each, in document order, its Markdown linking to each at its place with its alt text; a
 * tiny decoration is left out; with the contract's default the pictures stay placeholders and nothing is lifted.
 */
import { describe, expect, it } from 'vitest';
import { liftDataImages } from '../../../src/backend/embedded-images.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { placeImages } from '../../../src/pipeline/images/place-images.js';
import { assetReference } from '../../../src/store/layout.js';
import { DOCUMENTS, EXPECTED, sha256, SVG } from './make-image-documents.js';

function options(input: Record<string, unknown>) {
  const validation = validateParseOptions(input);
  if (!validation.ok) throw new Error('invalid options');
  return validation.options;
}

async function placed(fileName: string, bytes: Uint8Array) {
  const data = await parseDocument({ bytes, fileName, options: options({ removeBase64Images: false, parsers: [{ type: 'pdf', blocks: true }] }) });
  const lifted = liftDataImages(data);
  return placeImages(lifted.data, lifted.images, { file: fileName, linkOf: (name) => assetReference(fileName, name) });
}

describe.each(Object.entries(DOCUMENTS))('%s with pictures', (fileName, make) => {
  it('gives each picture once, as its bytes, in document order; the Markdown links to each at its place', async () => {
    const { data, assets, skipped } = await placed(fileName, make());
    expect(assets.map((asset) => sha256(asset.bytes))).toEqual(EXPECTED);
    expect(assets.map((asset) => asset.name)).toEqual(['image-1.png', 'image-2.gif', 'image-3.png']);
    expect(skipped).toBe(1);
    const markdown = data.markdown ?? '';
    expect(markdown).not.toContain('data:');
    expect(markdown).not.toContain('docmill-image:');
    const links = [...markdown.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((match) => ({ alt: match[1], target: match[2] }));
    const local = links.filter((link) => !link.target?.startsWith('http'));
    expect(local.map((link) => link.target)).toEqual([
      `${fileName}.assets/image-1.png`,
      `${fileName}.assets/image-2.gif`,
      `${fileName}.assets/image-3.png`,
      `${fileName}.assets/image-3.png`,
    ]);
    expect(local.map((link) => link.alt)).toEqual(['Team photo', 'Figure 1: Revenue by region', 'Logo', 'Logo']);
    expect(markdown.indexOf('image-1.png')).toBeLessThan(markdown.indexOf('image-2.gif'));
    // Block spans still slice the Markdown after the links replaced the pictures.
    for (const item of data.blocks?.flatMap((page) => page.items) ?? []) {
      if (item.markdownSpan) expect(markdown.slice(...item.markdownSpan)).toBe(item.content);
    }
  });

  it('keeps the placeholders of the contract default: no picture in the result', async () => {
    const data = await parseDocument({ bytes: make(), fileName, options: options({}) });
    expect(liftDataImages(data).images).toEqual([]);
  });
});

describe('page.html', () => {
  it('keeps a remote picture as a link, never fetched', async () => {
    const { data } = await placed('page.html', DOCUMENTS['page.html']!());
    expect(data.markdown).toContain('![Remote](https://images.example.com/remote.png)');
  });
});

describe('encodings without a pixel size', () => {
  it('keeps SVG and EMF as they are, named by their type', async () => {
    const emf = new Uint8Array([1, 0, 0, 0, 0x6c, 0, 0, 0, ...new Uint8Array(100).fill(7)]);
    const html = `<html><body><p>Figure</p><img alt="vector" src="data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}"><img alt="metafile" src="data:image/x-emf;base64,${Buffer.from(emf).toString('base64')}"></body></html>`;
    const { assets, data } = await placed('page.html', new TextEncoder().encode(html));
    expect(assets.map((asset) => [asset.name, sha256(asset.bytes)])).toEqual([
      ['image-1.svg', sha256(SVG)],
      ['image-2.emf', sha256(emf)],
    ]);
    expect(data.markdown).toContain('![vector](page.html.assets/image-1.svg)');
  });
});
