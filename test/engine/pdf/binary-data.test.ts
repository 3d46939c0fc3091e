/** CachedBinaryDataFactory (src/engine/pdf/binary-data.ts): pdfjs's CMaps, fonts and wasm from disk, once per thread. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CachedBinaryDataFactory } from '../../../src/engine/pdf/binary-data.js';

const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const CMAPS = `${PDFJS_ROOT}/cmaps/`;
const STANDARD_FONTS = `${PDFJS_ROOT}/standard_fonts/`;
const CMAP_NAME = 'UniJIS-UCS2-H.bcmap';

const temporary: string[] = [];
/** A fresh folder, as the factory wants it (trailing slash). */
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'docmill-binary-data-'));
  temporary.push(folder);
  return `${folder}/`;
}
afterAll(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe('CachedBinaryDataFactory', () => {
  it('serves a pdfjs CMap and standard font file with the bytes on disk', async () => {
    const factory = new CachedBinaryDataFactory({ cMapUrl: CMAPS, standardFontDataUrl: STANDARD_FONTS });
    const cmap = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    const disk = readFileSync(`${CMAPS}${CMAP_NAME}`);
    expect(cmap).toBeInstanceOf(Uint8Array);
    expect(cmap.length).toBe(disk.length);
    expect(cmap.length).toBeGreaterThan(1000);
    expect(sameBytes(cmap, disk)).toBe(true);

    const font = await factory.fetch({ kind: 'standardFontDataUrl', filename: 'FoxitSerif.pfb' });
    expect(sameBytes(font, readFileSync(`${STANDARD_FONTS}FoxitSerif.pfb`))).toBe(true);
  });

  it('returns equal but distinct arrays: changing one leaves the others and later fetches whole', async () => {
    const factory = new CachedBinaryDataFactory({ cMapUrl: CMAPS });
    const first = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    const second = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    expect(second).not.toBe(first);
    expect(second.buffer).not.toBe(first.buffer);
    expect(sameBytes(first, second)).toBe(true);

    const original = first[10]!;
    first[10] = original ^ 0xff;
    first.fill(0, 20, 60);
    expect(second[10]).toBe(original);
    const third = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    expect(sameBytes(third, readFileSync(`${CMAPS}${CMAP_NAME}`))).toBe(true);
  });

  it('survives pdfjs transferring (detaching) the buffer it was given', async () => {
    const factory = new CachedBinaryDataFactory({ cMapUrl: CMAPS });
    const given = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    const length = given.length;
    // Transferring detaches the whole buffer: were it the cache's, every later fetch would come back empty.
    structuredClone(given.buffer, { transfer: [given.buffer as ArrayBuffer] });
    expect(given.length).toBe(0);
    const again = await factory.fetch({ kind: 'cMapUrl', filename: CMAP_NAME });
    expect(again.length).toBe(length);
    expect(sameBytes(again, readFileSync(`${CMAPS}${CMAP_NAME}`))).toBe(true);
  });

  it('refuses names that are not plain file names, naming the name, even when the file exists', async () => {
    // root/secret.bin, root/data/.hidden and root/data/sub/inner.bin all exist; the factory serves root/data/.
    const root = tempFolder();
    const data = `${root}data/`;
    mkdirSync(`${data}sub`, { recursive: true });
    writeFileSync(`${root}secret.bin`, 'secret');
    writeFileSync(`${data}.hidden`, 'hidden');
    writeFileSync(`${data}sub/inner.bin`, 'inner');
    writeFileSync(`${data}a..b.bin`, 'dots');
    const factory = new CachedBinaryDataFactory({ cMapUrl: data });
    for (const name of ['../secret.bin', '..', 'sub/inner.bin', '/etc/hostname', '.hidden', 'a..b.bin', 'sub\\inner.bin', '']) {
      await expect(factory.fetch({ kind: 'cMapUrl', filename: name }), name).rejects.toThrow(`"${name}"`);
    }
  });

  it('rejects a kind that has no folder configured', async () => {
    const factory = new CachedBinaryDataFactory({ cMapUrl: CMAPS });
    await expect(factory.fetch({ kind: 'standardFontDataUrl', filename: 'FoxitSerif.pfb' })).rejects.toThrow(
      /no folder configured for pdfjs standardFontDataUrl/,
    );
    await expect(factory.fetch({ kind: 'wasmUrl', filename: 'openjpeg.wasm' })).rejects.toThrow(/wasmUrl/);
    const none = new CachedBinaryDataFactory({ cMapUrl: null });
    await expect(none.fetch({ kind: 'cMapUrl', filename: CMAP_NAME })).rejects.toThrow(/cMapUrl/);
  });

  it('rejects a missing file, and reads the disk again on the next fetch of that name', async () => {
    const folder = tempFolder();
    const factory = new CachedBinaryDataFactory({ cMapUrl: folder });
    await expect(factory.fetch({ kind: 'cMapUrl', filename: 'Later-H.bcmap' })).rejects.toMatchObject({ code: 'ENOENT' });
    writeFileSync(`${folder}Later-H.bcmap`, Buffer.from([1, 2, 3, 4, 5]));
    const bytes = await factory.fetch({ kind: 'cMapUrl', filename: 'Later-H.bcmap' });
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads a file once per thread: a new factory (pdfjs makes one per document) serves the bytes first read', async () => {
    const folder = tempFolder();
    writeFileSync(`${folder}Cached-H.bcmap`, Buffer.from('first version'));
    const first = await new CachedBinaryDataFactory({ cMapUrl: folder }).fetch({ kind: 'cMapUrl', filename: 'Cached-H.bcmap' });
    writeFileSync(`${folder}Cached-H.bcmap`, Buffer.from('second version, longer'));
    const second = await new CachedBinaryDataFactory({ cMapUrl: folder }).fetch({ kind: 'cMapUrl', filename: 'Cached-H.bcmap' });
    expect(Buffer.from(first).toString()).toBe('first version');
    expect(Buffer.from(second).toString()).toBe('first version');
  });
});
