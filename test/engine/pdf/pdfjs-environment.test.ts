/**
 * pdfjs's bundles evaluated in a lean environment (src/engine/pdf/pdfjs-environment.ts): a thread that reads a
 * page with pdfjs does not load Skia (`@napi-rs/canvas`) nor, on Node 20, Node's fetch implementation, and the
 * page's text is whole. Each case runs in a fresh process: the vitest worker may have loaded pdfjs already.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INERT_CANVAS, leanPdfjsEnvironment, PdfjsCannotDrawError } from '../../../src/engine/pdf/pdfjs-environment.js';

const CONVERT = pathToFileURL(join(import.meta.dirname, '../../../src/engine/pdf/convert-pdf.ts')).href;
// A Word page set in Cambria: docmill reads it with pdfjs (liteparse/read-pages.ts, OUTSIZED_SHARE).
const CAMBRIA_PAGE = join(import.meta.dirname, '../../fixtures/pdf-bench/structure-01030000000122.pdf');

interface ChildReport {
  skiaMapped: boolean;
  undiciLoaded: boolean;
  responseWasLazy: boolean;
  responseIsLazy: boolean;
  canvasCached: boolean;
  text: string;
}

/** Converts the Cambria page in a fresh process and reports what the process loaded. */
function convertInFreshProcess(): ChildReport {
  const script = `
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    // Node 20 defines Response as a getter that loads fetch; later versions as a value (any look at it loads it).
    const responseWasLazy = Number(process.versions.node.split('.')[0]) < 22;
    const { convertPdf } = await import(${JSON.stringify(CONVERT)});
    const bytes = new Uint8Array(readFileSync(${JSON.stringify(CAMBRIA_PAGE)}));
    const model = await convertPdf({ bytes, fileName: 'cambria.pdf', options: { parsers: [{ type: 'pdf', mode: 'fast' }] } });
    const text = model.pages.flatMap((page) => page.blocks.map((block) => block.markdown)).join(' ').replace(/\\s+/g, ' ');
    const skiaMapped = readFileSync('/proc/self/maps', 'utf8').includes('skia');
    const undiciLoaded = process.moduleLoadList.some((name) => name.includes('undici'));
    const pdfjs = createRequire(import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    let canvasCached = false;
    try { canvasCached = createRequire(import.meta.url).cache[pdfjs.resolve('@napi-rs/canvas')] !== undefined; } catch {}
    const responseIsLazy = responseWasLazy && typeof Object.getOwnPropertyDescriptor(globalThis, 'Response')?.get === 'function';
    console.log(JSON.stringify({ skiaMapped, undiciLoaded, responseWasLazy, responseIsLazy, canvasCached, text }));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '../../..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildReport;
}

describe('pdfjs evaluated without canvas or fetch', () => {
  it('reads a page with pdfjs without loading Skia, and on Node 20 without loading fetch', () => {
    const report = convertInFreshProcess();
    expect(report.text).toContain('Mix reagents by pipetting gently up and down.');
    expect(report.text).toContain('If an air bubble forms a cap over the well, the sample will flow into the buffer');
    expect(report.skiaMapped).toBe(false);
    // The stand-in was in the require cache only while pdfjs loaded.
    expect(report.canvasCached).toBe(false);
    if (report.responseWasLazy) {
      expect(report.undiciLoaded).toBe(false);
      // Put back as Node defined it: the first use of Response still loads it.
      expect(report.responseIsLazy).toBe(true);
    }
  });

  it("the canvas stand-in's classes hold a matrix and refuse to draw, naming why", () => {
    const matrix = new INERT_CANVAS.DOMMatrix([2, 0, 0, 2, 5, 7]);
    expect([matrix.a, matrix.d, matrix.e, matrix.f]).toEqual([2, 2, 5, 7]);
    expect([new INERT_CANVAS.DOMMatrix().a, new INERT_CANVAS.DOMMatrix().b]).toEqual([1, 0]);
    expect(() => new INERT_CANVAS.Path2D()).toThrow(/Path2D is not available in docmill's engine threads: pages are drawn with PDFium/);
    expect(() => new INERT_CANVAS.ImageData()).toThrow(PdfjsCannotDrawError);
  });

  it('puts the require cache back as it was once pdfjs is evaluated', () => {
    const require = createRequire(import.meta.url);
    const canvasPath = createRequire(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).resolve('@napi-rs/canvas');
    const before = require.cache[canvasPath];
    const restore = leanPdfjsEnvironment();
    // pdfjs's display layer would get the stand-in from its require().
    if (!before) expect(require.cache[canvasPath]?.exports).toBe(INERT_CANVAS);
    restore();
    expect(require.cache[canvasPath]).toBe(before);
  });
});
