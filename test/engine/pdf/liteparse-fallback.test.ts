/**
 * LiteParse reads PDF text inside the engine's threads; where its native module cannot load, the thread says so
 * once and reads PDFs with the built-in pdfjs path, with the same kind of result. The failure is real: the
 * thread imports a module that throws as the package does on a platform without a prebuilt native module.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ParseOptions } from '../../../src/contract/options.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { EngineThreadPool } from '../../../src/engine/thread-pool.js';
import { convertWithPdfjs, fixtureBytes, LITEPARSE_WITHOUT_NATIVE, mainMarkdown } from './helpers.js';
import { privateUseTextPdf } from './scanned-pdfs.js';

function fast(): ParseOptions {
  const result = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }] });
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

// The broken ToUnicode map tells the two readers apart: PDFium reads the standard font's own encoding, pdfjs
// follows the map to private-use code points.
const BROKEN_MAP = privateUseTextPdf(['Quarterly invoice totals', 'Shipping address verified']);

const pools: EngineThreadPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('LiteParse in the engine threads', () => {
  it('reads PDF text with LiteParse where its native module loads', async () => {
    const pool = new EngineThreadPool({ size: 1 });
    pools.push(pool);
    const data = await pool.run(BROKEN_MAP, 'broken-map.pdf', fast());
    expect(data.markdown).toMatch(/^Quarterly invoice totals\s+Shipping address verified$/);
  });

  it('falls back to the pdfjs path where it cannot load: one log line, then the same result as pdfjs gives', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const pool = new EngineThreadPool({ size: 1, liteParseModule: LITEPARSE_WITHOUT_NATIVE });
    pools.push(pool);
    const broken = await pool.run(BROKEN_MAP, 'broken-map.pdf', fast());
    const report = await pool.run(fixtureBytes('acme-report-3p.pdf'), 'acme.pdf', fast());

    expect(broken.markdown).toBe(mainMarkdown(await convertWithPdfjs(BROKEN_MAP, { mode: 'fast' })));
    expect(broken.markdown).not.toContain('Quarterly');
    expect(report.markdown).toBe(mainMarkdown(await convertWithPdfjs(fixtureBytes('acme-report-3p.pdf'), { mode: 'fast' })));
    expect(report.metadata).toMatchObject({ numPages: 3, totalPages: 3 });
    await vi.waitFor(() => expect(written.join('')).toMatch(/LiteParse could not be loaded \(Failed to load native module.*built-in pdfjs path/));
    expect(written.join('').match(/LiteParse could not be loaded/g)).toHaveLength(1);
  });
});
