/**
 * The patched pdfjs worker (src/engine/pdf/pdfjs-worker.ts): the text patches against the installed bundle, and
 * what each patch does to real documents (counters from `pdfjsPatchStats`, the text that still comes out).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { brotliCompressSync, constants, deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fontStyleOf, openPdf } from '../../../src/engine/pdf/convert-pdf.js';
import {
  latin1Source,
  patchWorkerSource,
  pdfjsPatchStats,
  pdfStreamLimits,
  PdfjsPatchError,
  type PdfFontFacts,
  type PdfjsPatchStats,
} from '../../../src/engine/pdf/pdfjs-worker.js';
import { allBlocks, convertBytes, convertWithPdfjs, corpusBytes, mainMarkdown, rejectionOf } from './helpers.js';

const WORKER_FILE = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
const WORKER_URL = pathToFileURL(WORKER_FILE).href;
const WORKER_SOURCE = readFileSync(WORKER_FILE, 'utf8');

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** A text each patch's anchor contains (and nothing else in the bundle does). */
const ANCHOR_WITNESSES = [
  { patch: 'inflate', witness: 'async asyncGetBytesFromDecompressionStream(name) {' },
  { patch: 'decode-limit', witness: 'let size = this.minBufferLength;' },
  { patch: 'font-program', witness: `warn('Font file is empty in "' + name` },
  { patch: 'font-weight', witness: 'return new Font(fontName.name, fontFile, newProperties, this.options);' },
  { patch: 'text-styles', witness: 'textContent.styles[loadedName] = {' },
  // The text-styles anchor follows a few lines below: the copy around this one must stop short of it.
  { patch: 'text-transform', witness: 'return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));', after: 120 },
  { patch: 'glyph-run-start', witness: 'const scale = textState.fontMatrix[0] * textState.fontSize;' },
  { patch: 'glyph-run-check', witness: '!compareWithLastPosition(scaledDim)' },
  { patch: 'glyph-run-end', witness: 'textChunk.str.push(glyphUnicode);' },
  { patch: 'glyph-run-view', witness: 'function compareWithLastPosition(glyphWidth) {' },
  { patch: 'type1-no-cff', witness: 'const type2Charstrings = this.getType2Charstrings(charstrings);' },
  { patch: 'cff-no-compile', witness: 'this.data = compiler.compile();' },
  { patch: 'convert-no-tables', witness: 'const unitsPerEm = properties.fontMatrix ? 1 / Math.max(' },
] as const;

/** What `patchWorkerSource` throws for `source` (fails the test when it does not throw). */
function patchErrorOf(source: string): PdfjsPatchError {
  try {
    patchWorkerSource(source, WORKER_URL);
  } catch (error) {
    return error as PdfjsPatchError;
  }
  throw new Error('expected patchWorkerSource to throw');
}

describe('patchWorkerSource on the installed pdfjs-dist worker bundle', () => {
  const patched = patchWorkerSource(WORKER_SOURCE, WORKER_URL);

  it('patches the pinned bundle and leaves a classic-script function expression taking the hooks', () => {
    // Compiling as a classic script fails on `import.meta` or `export`, and on a patch that breaks the syntax.
    const factory: unknown = new vm.Script(patched, { filename: 'patched-pdf-worker.js' }).runInNewContext({});
    expect(typeof factory).toBe('function');
    expect((factory as (hooks: unknown) => unknown).length).toBe(1);
    expect(patched).not.toContain('import.meta.url');
    expect(patched).not.toContain('import.meta');
    expect(patched).not.toContain('export {');
    // The wasm decoders are found through the file's URL, which replaces every import.meta.url.
    expect(occurrences(WORKER_SOURCE, 'import.meta.url')).toBeGreaterThan(0);
    expect(occurrences(patched, JSON.stringify(WORKER_URL))).toBe(occurrences(WORKER_SOURCE, 'import.meta.url'));
  });

  it('puts each patch in exactly once', () => {
    for (const marker of [
      'docmillHooks.inflate(',
      'docmillHooks.stats.fontProgramsSkipped++',
      'docmillFont.docmillWeight =',
      'docmill: {',
      'const t4 = m[2] * tsm[5] + m[4]',
      'let docmillRun = false;',
      'docmillContinues ? docmillInView(',
      'docmillRun = scaledDim !== 0',
      'function docmillInView(',
      'this.charstrings = charstrings;\n    this.data = null;',
      'this.seacs = this.cff.seacs;\n    this.data = null;',
      'return null;\n    const unitsPerEm',
    ]) {
      expect(occurrences(WORKER_SOURCE, marker), marker).toBe(0);
      expect(occurrences(patched, marker), marker).toBe(1);
    }
    expect(patched).toContain('docmillWeight');
    expect(patched).toContain('docmillFlags');
  });

  it('keeps the bundle otherwise whole (only the patched regions differ in length)', () => {
    // Sanity: patching adds code, it does not drop the bundle's body.
    expect(patched.length).toBeGreaterThan(WORKER_SOURCE.length);
    expect(patched.length).toBeLessThan(WORKER_SOURCE.length + 10_000);
    expect(patched).toContain('globalThis.pdfjsWorker');
  });

  it('is stored one byte a character once its few characters above U+007F are escaped, and means the same', () => {
    const oneByte = patchWorkerSource(latin1Source(readFileSync(WORKER_FILE)), WORKER_URL);
    expect(/[\u0080-\uffff]/.test(WORKER_SOURCE)).toBe(true);
    expect(/[\u0080-\uffff]/.test(oneByte)).toBe(false);
    // The same code but for the escapes.
    expect(oneByte).toBe(patched.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
  });

  for (const entry of ANCHOR_WITNESSES) {
    const { patch, witness } = entry;
    const after = 'after' in entry ? entry.after : 600;
    it(`fails with PDFJS_PATCH_FAILED naming "${patch}" when its anchor is missing`, () => {
      expect(occurrences(WORKER_SOURCE, witness)).toBe(1);
      const error = patchErrorOf(WORKER_SOURCE.replace(witness, '/* moved by a newer pdfjs */'));
      expect(error).toBeInstanceOf(PdfjsPatchError);
      expect(error.code).toBe('PDFJS_PATCH_FAILED');
      expect(error.message).toContain(`"${patch}"`);
      expect(error.message).toContain('found no anchor');
    });

    it(`fails with PDFJS_PATCH_FAILED naming "${patch}" when its anchor appears twice`, () => {
      const at = WORKER_SOURCE.indexOf(witness);
      // A copy of the code around the anchor, as a bundle with the same function twice would have.
      const copy = WORKER_SOURCE.slice(at - 400, at + after);
      const error = patchErrorOf(`${WORKER_SOURCE}\n${copy}\n`);
      expect(error).toBeInstanceOf(PdfjsPatchError);
      expect(error.code).toBe('PDFJS_PATCH_FAILED');
      expect(error.message).toContain(`"${patch}"`);
      expect(error.message).toContain('found more than one');
    });
  }

  it('renaming the inflate method (the example of a moved anchor) is refused, not run unpatched', () => {
    const renamed = WORKER_SOURCE.replaceAll('asyncGetBytesFromDecompressionStream', 'asyncGetBytesViaDecompressionStream');
    const error = patchErrorOf(renamed);
    expect(error.code).toBe('PDFJS_PATCH_FAILED');
    expect(error.message).toMatch(/"inflate"/);
  });

  it('fails with PDFJS_PATCH_FAILED when the bundle has no export line to strip', () => {
    const error = patchErrorOf(WORKER_SOURCE.replace('export { WorkerMessageHandler };', ''));
    expect(error).toBeInstanceOf(PdfjsPatchError);
    expect(error.code).toBe('PDFJS_PATCH_FAILED');
    expect(error.message).toMatch(/export line/);
  });
});

function statsDelta(before: PdfjsPatchStats): PdfjsPatchStats {
  const after = pdfjsPatchStats();
  return {
    fontProgramsSkipped: after.fontProgramsSkipped - before.fontProgramsSkipped,
    fontProgramsNotCompiled: after.fontProgramsNotCompiled - before.fontProgramsNotCompiled,
    streamsRefused: after.streamsRefused - before.streamsRefused,
    streamsInflated: after.streamsInflated - before.streamsInflated,
    rulingsDropped: after.rulingsDropped - before.rulingsDropped,
  };
}

/** Whitespace-normalised Markdown of the document's main content. */
function flatText(markdown: string): string {
  return markdown.replace(/\s+/g, ' ');
}

// What the patched worker does to a document's pages shows where pdfjs reads them: without LiteParse.
describe('latin1Source: a UTF-8 source with its characters above U+007F as escapes', () => {
  const evaluate = (source: string): unknown => new vm.Script(source).runInNewContext({});

  it('gives the same values in strings, templates, regular expressions and identifiers', () => {
    const source = [
      '// © 2013–2025, a comment',
      'const café = "© 2013–2025 тест ﬅ ſt 😀";',
      'const template = `x–${café.length}–y`;',
      'const pattern = /[а-я]+–😀/u;',
      '[café, template, pattern.test("тест–😀"), pattern.test("тест-😀")]',
    ].join('\n');
    const escaped = latin1Source(Buffer.from(source, 'utf8'));
    expect(/[\u0080-\uffff]/.test(escaped)).toBe(false);
    expect(evaluate(escaped)).toEqual(evaluate(source));
  });

  it('leaves the text as UTF-8 decodes it when a character above U+007F follows a backslash', () => {
    // "\\–" in a string is an escaped en dash; "\\\\u2013" would be a backslash and "u2013".
    const source = 'const dash = "\\–"; dash';
    expect(latin1Source(Buffer.from(source, 'utf8'))).toBe(source);
    expect(evaluate(latin1Source(Buffer.from(source, 'utf8')))).toBe('–');
  });
});

describe('the patches on real documents', () => {
  it('code_and_formula.pdf: every font has a ToUnicode map, so no program is parsed, and the text is intact', async () => {
    const before = pdfjsPatchStats();
    const doc = await convertWithPdfjs(corpusBytes('code_and_formula.pdf'));
    const delta = statsDelta(before);
    // pdffonts: seven embedded Type 1 fonts (CMR10 ×2, CMBX12 ×2, CMTT9, CMMI10, CMR7), all with uni=yes.
    expect(delta.fontProgramsSkipped).toBe(7);
    // At least the two pages' Flate content streams went through node:zlib.
    expect(delta.streamsInflated).toBeGreaterThanOrEqual(2);
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('## JavaScript Code Example');
    expect(markdown).toContain('## Formula');
    expect(flatText(markdown)).toContain(
      'Duis autem vel eum iriure dolor in hendrerit in vulputate velit esse molestie consequat, vel illum dolore eu feugiat nulla facilisis',
    );
    expect(markdown).toContain('Listing 1: Simple JavaScript Program');
    const code = allBlocks(doc).find((block) => block.label === 'code');
    expect(code?.markdown).toMatch(/function +add \(a , b \) \{/);
    expect(code?.markdown).toMatch(/return a \+ b ;/);
  });

  it('multi-column-2p.pdf: fonts without ToUnicode still have their programs read, so the text is right', async () => {
    const before = pdfjsPatchStats();
    const doc = await convertWithPdfjs(corpusBytes('multi-column-2p.pdf'));
    const delta = statsDelta(before);
    // pdffonts: 12 embedded Type 1 fonts, none with a ToUnicode map (uni=no), plus a non-embedded Times-Roman.
    // The embedded ones must be parsed (their built-in encodings map codes to glyph names). Only Times-Roman is
    // skipped: pdfjs substitutes its own standard-font program for it (an "internal font"), and nothing in it
    // can tell the text more than the standard encoding already does.
    expect(delta.fontProgramsSkipped).toBe(1);
    // Read for their encodings and metrics, not compiled into OpenType for a renderer: all 12.
    expect(delta.fontProgramsNotCompiled).toBe(12);
    expect(delta.streamsInflated).toBeGreaterThanOrEqual(2);

    const markdown = mainMarkdown(doc);
    const text = flatText(markdown);
    // Ligature glyphs (fi, ffi, fl: named in the Nimbus fonts' /Differences) come out as letters.
    expect(markdown).not.toMatch(/[\uFB00-\uFB06]/);
    expect(text).toContain(
      'Open-domain question answering relies on efficient passage retrieval to select candidate contexts',
    );
    expect(text).toContain('a much simplified two-stage framework: (1) a context retriever first selects');
    expect(text).toContain('which provides additional flexibility to have a task-specific representation.');
    expect(text).toContain('A term-based system would have difficulty retrieving such a context');
    expect(text).not.toMatch(/\b(ef cient|simpli ed|dif culty)/);
    // CMSY10 and CMMI10 have no ToUnicode and a built-in encoding: which glyph (→, ⊂, ∗, the comma in "(q, C)")
    // a code means is written only in the font program. Skipping these programs turns them into "!", "" and ";".
    expect(text).toContain('a retriever R : (q, C) → CF is a function');
    expect(text).toContain('returns a much smaller filter set of texts CF ⊂ C');
    expect(text).toContain('Vladimir Karpukhin∗, Barlas Oğuz∗');
  });

  it('reports descriptor weights of real fonts in the text styles (right_to_left_01.pdf, korean-text-with-tables.pdf)', async () => {
    // FontDescriptor /FontWeight of these files: TimesNewRomanPS-BoldMT 700, TimesNewRomanPSMT 400,
    // YoonGothicPro780 700, YoonGothicPro770 500, YoonGothicPro740 400 (read from the PDFs' descriptors).
    const weights = new Map<string, number | null>();
    for (const name of ['right_to_left_01.pdf', 'korean-text-with-tables.pdf']) {
      for (const facts of (await textStyles(corpusBytes(name))).values()) {
        if (facts.docmill?.name) weights.set(facts.docmill.name.replace(/^[A-Z]{6}\+/, ''), facts.docmill.weight);
      }
    }
    expect(weights.get('TimesNewRomanPS-BoldMT')).toBe(700);
    expect(weights.get('TimesNewRomanPSMT')).toBe(400);
    expect(weights.get('YoonGothicPro780')).toBe(700);
    expect(weights.get('YoonGothicPro770')).toBe(500);
    expect(weights.get('YoonGothicPro740')).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A tiny PDF writer for streams the fixture writer does not make (compressed, damaged, with font descriptors).

type PdfObject = string | { dict: string; data: Uint8Array };

/** `objects[i]` is object i + 1; object 1 must be the catalogue. Correct /Length, offsets and xref. */
function buildPdf(objects: readonly PdfObject[]): Uint8Array {
  const chunks: Buffer[] = [];
  let length = 0;
  const add = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  const text = (value: string) => add(Buffer.from(value, 'latin1'));
  text('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    if (typeof object === 'string') {
      text(`${index + 1} 0 obj\n${object}\nendobj\n`);
    } else {
      text(`${index + 1} 0 obj\n<< ${object.dict} /Length ${object.data.length} >>\nstream\n`);
      add(Buffer.from(object.data));
      text('\nendstream\nendobj\n');
    }
  });
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  text(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`);
  text(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A one-page document whose content stream is `content` (already encoded per `filter`), text in Helvetica. */
function helveticaPage(filter: string, content: Uint8Array): Uint8Array {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    { dict: `/Filter /${filter}`, data: content },
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]);
}

/** Text lines as content-stream operators, a paragraph apart so each is its own block. */
function textOperators(lines: readonly string[], top: number): string {
  return lines.map((line, i) => `BT /F1 12 Tf 72 ${top - i * 60} Td (${line}) Tj ET\n`).join('');
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const BEFORE_DAMAGE = ['Kept sentence one before the damage.', 'Kept sentence two before the damage.'];
const AFTER_DAMAGE = ['Lost sentence three in the cut block.', 'Lost sentence four in the cut block.'];

/**
 * A zlib stream in two deflate parts: the first ends with a sync flush (a block boundary), the second is the
 * final block; then the Adler-32 checksum. Cutting into the second part leaves the first decodable.
 */
function twoPartFlate(): { stream: Buffer; secondPartLength: number } {
  const first = Buffer.from(textOperators(BEFORE_DAMAGE, 700), 'latin1');
  const second = Buffer.from(textOperators(AFTER_DAMAGE, 580), 'latin1');
  const part1 = deflateRawSync(first, { finishFlush: constants.Z_SYNC_FLUSH });
  const part2 = deflateRawSync(second);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32(Buffer.concat([first, second])));
  return { stream: Buffer.concat([Buffer.from([0x78, 0x9c]), part1, part2, checksum]), secondPartLength: part2.length };
}

describe('inflate: content streams through node:zlib, damaged ones through pdfjs', () => {
  // These pages have text PDFium reads as well, and LiteParse reads them in every mode: the patched worker's stream
  // handling is seen where pdfjs reads the page (convertWithPdfjs), except where only pdfjs can (BrotliDecode).
  it('an intact Flate content stream is inflated by node:zlib and read whole', async () => {
    const { stream } = twoPartFlate();
    const before = pdfjsPatchStats();
    const doc = await convertWithPdfjs(helveticaPage('FlateDecode', stream));
    expect(statsDelta(before).streamsInflated).toBe(1);
    const text = flatText(mainMarkdown(doc));
    for (const line of [...BEFORE_DAMAGE, ...AFTER_DAMAGE]) expect(text).toContain(line);
  });

  it('a stream cut short (last block half gone, no checksum) yields the text before the damage', async () => {
    const { stream, secondPartLength } = twoPartFlate();
    const cut = stream.subarray(0, stream.length - 4 - Math.floor(secondPartLength / 2));
    const before = pdfjsPatchStats();
    const doc = await convertWithPdfjs(helveticaPage('FlateDecode', cut));
    // node:zlib gives what precedes the cut (a sync flush), as it does for a stream cut inside one block.
    expect(statsDelta(before).streamsInflated).toBe(1);
    expect(doc.pages.map((page) => page.status)).toEqual(['ok']);
    const text = flatText(mainMarkdown(doc));
    for (const line of BEFORE_DAMAGE) expect(text).toContain(line);
    for (const line of AFTER_DAMAGE) expect(text).not.toContain(line);
  });

  it('a stream of one block cut in the middle still yields the lines before the cut (pdfjs alone lost the page)', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a page whose stream was cut short.`);
    const operators = lines.map((line, i) => `BT /F1 10 Tf 72 ${760 - i * 20} Td (${line}) Tj ET\n`).join('');
    const stream = deflateSync(Buffer.from(operators, 'latin1'));
    const cut = stream.subarray(0, Math.floor(stream.length * 0.6));
    const doc = await convertBytes(helveticaPage('FlateDecode', cut));
    expect(doc.pages.map((page) => page.status)).toEqual(['ok']);
    const text = flatText(mainMarkdown(doc));
    expect(text).toContain(lines[0]);
    expect(text).toContain(lines[5]);
    expect(text).not.toContain(lines[29]);
  });

  it('a wrong Adler-32 checksum (node:zlib refuses it) still gives the whole text through pdfjs', async () => {
    const content = Buffer.from(textOperators([...BEFORE_DAMAGE, ...AFTER_DAMAGE], 700), 'latin1');
    const stream = deflateSync(content);
    stream.writeUInt8(stream.readUInt8(stream.length - 1) ^ 0xff, stream.length - 1);
    const before = pdfjsPatchStats();
    const doc = await convertBytes(helveticaPage('FlateDecode', stream));
    expect(statsDelta(before).streamsInflated).toBe(0);
    const text = flatText(mainMarkdown(doc));
    for (const line of [...BEFORE_DAMAGE, ...AFTER_DAMAGE]) expect(text).toContain(line);
  });

  it('a decompression bomb fails with DOCUMENT_TOO_COMPLEX naming the cause, instead of filling memory', async () => {
    const bomb = deflateSync(Buffer.concat([Buffer.from(textOperators(BEFORE_DAMAGE, 700), 'latin1'), Buffer.alloc(3 << 20, 0x20)]));
    const saved = pdfStreamLimits.maxInflatedBytes;
    pdfStreamLimits.maxInflatedBytes = 1 << 20;
    try {
      const rejection = await rejectionOf(convertWithPdfjs(helveticaPage('FlateDecode', bomb)));
      expect(rejection.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
      expect(rejection.message).toContain('a compressed stream expands beyond 1 MiB');
    } finally {
      pdfStreamLimits.maxInflatedBytes = saved;
    }
  });

  it('a bomb in a filter pdfjs decodes itself (RunLengthDecode) is stopped at the same limit, with a warning', async () => {
    // RunLength: a byte n < 128 copies the next n + 1 bytes; n > 128 repeats the next byte 257 - n times.
    const head = Buffer.from(textOperators(BEFORE_DAMAGE, 700), 'latin1');
    const literal: number[] = [];
    for (let at = 0; at < head.length; at += 128) {
      const part = head.subarray(at, at + 128);
      literal.push(part.length - 1, ...part);
    }
    const runs = Buffer.alloc(2 * 24_576);
    for (let i = 0; i < runs.length; i += 2) {
      runs.writeUInt8(129, i);
      runs.writeUInt8(0x20, i + 1);
    }
    const bomb = Buffer.concat([Buffer.from(literal), runs, Buffer.from([128])]); // 3 MiB of spaces, then EOD
    const saved = pdfStreamLimits.maxInflatedBytes;
    try {
      pdfStreamLimits.maxInflatedBytes = 8 << 20;
      const whole = flatText(mainMarkdown(await convertWithPdfjs(helveticaPage('RunLengthDecode', bomb))));
      for (const line of BEFORE_DAMAGE) expect(whole).toContain(line);

      // pdfjs reads this stream piecemeal as it parses: it stops at the limit and keeps the text before it.
      pdfStreamLimits.maxInflatedBytes = 1 << 20;
      const before = pdfjsPatchStats();
      const cut = await convertWithPdfjs(helveticaPage('RunLengthDecode', bomb));
      expect(statsDelta(before).streamsRefused).toBe(1);
      expect(cut.pages.map((p) => p.status)).toEqual(['ok']);
      // pdfjs drops the text item it was building when the stream fails under it: the first line is complete.
      expect(flatText(mainMarkdown(cut))).toContain(BEFORE_DAMAGE[0]);
      expect(cut.warnings?.join(' ')).toMatch(/Page\(s\) 1: a compressed stream expands beyond 1 MiB .*text after that point is missing/);
    } finally {
      pdfStreamLimits.maxInflatedBytes = saved;
    }
  });

  it('a bomb on one page of two fails that page only: the other page is kept, with a warning', async () => {
    const good = deflateSync(Buffer.from(textOperators(BEFORE_DAMAGE, 700), 'latin1'));
    const bomb = deflateSync(Buffer.concat([Buffer.from(textOperators(AFTER_DAMAGE, 700), 'latin1'), Buffer.alloc(3 << 20, 0x20)]));
    const page = (contents: number) =>
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents ${contents} 0 R >>`;
    const bytes = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
      page(5),
      page(6),
      { dict: '/Filter /FlateDecode', data: good },
      { dict: '/Filter /FlateDecode', data: bomb },
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ]);
    const saved = pdfStreamLimits.maxInflatedBytes;
    pdfStreamLimits.maxInflatedBytes = 1 << 20;
    try {
      const doc = await convertWithPdfjs(bytes);
      expect(doc.pages.map((p) => p.status)).toEqual(['ok', 'failed']);
      const text = flatText(mainMarkdown(doc));
      for (const line of BEFORE_DAMAGE) expect(text).toContain(line);
      expect(doc.warnings?.join(' ')).toMatch(/Page\(s\) 2 could not be read: a compressed stream expands beyond 1 MiB/);
    } finally {
      pdfStreamLimits.maxInflatedBytes = saved;
    }
  });

  it('a Brotli content stream is inflated by node:zlib', async () => {
    const content = Buffer.from(textOperators(BEFORE_DAMAGE, 700), 'latin1');
    const before = pdfjsPatchStats();
    const doc = await convertBytes(helveticaPage('BrotliDecode', brotliCompressSync(content)));
    expect(statsDelta(before).streamsInflated).toBe(1);
    const text = flatText(mainMarkdown(doc));
    for (const line of BEFORE_DAMAGE) expect(text).toContain(line);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// font-weight and text-styles: descriptor facts reach the text content styles.

interface StyleWithFacts {
  fontFamily?: string;
  docmill?: PdfFontFacts;
}

/** Page 1's text content styles, by font name as pdfjs reports them (`docmill.name`). */
async function textStyles(bytes: Uint8Array): Promise<Map<string, StyleWithFacts>> {
  const { doc } = await openPdf(bytes);
  try {
    const out = new Map<string, StyleWithFacts>();
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const [key, style] of Object.entries(content.styles as Record<string, StyleWithFacts>)) {
        out.set(style.docmill?.name ?? key, style);
      }
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

const PITCH_FIXED = 1;
const NONSYMBOLIC = 32;
const FORCE_BOLD = 1 << 18;

/** Varying widths, so pdfjs's own "all widths equal" monospace guess stays off. */
const WIDTHS = `[${Array.from({ length: 95 }, (_, i) => 400 + (i % 7) * 50).join(' ')}]`;

/** Non-embedded fonts with descriptors; names that say nothing about weight or pitch. */
const DESCRIBED_FONTS = [
  { key: 'F1', name: 'DocmillAlpha', flags: NONSYMBOLIC, weight: 400, line: 'Alpha words at weight four hundred' },
  { key: 'F2', name: 'DocmillBravo', flags: NONSYMBOLIC, weight: 700, line: 'Bravo words at weight seven hundred' },
  { key: 'F3', name: 'DocmillCharlie', flags: NONSYMBOLIC | FORCE_BOLD, weight: null, line: 'Charlie words forced bold' },
  { key: 'F4', name: 'DocmillDelta', flags: NONSYMBOLIC | PITCH_FIXED, weight: null, line: 'Delta words in fixed pitch' },
  { key: 'F5', name: 'DocmillEcho-Black', flags: NONSYMBOLIC, weight: null, line: 'Echo words in black' },
] as const;

function describedFontsPdf(): Uint8Array {
  const fontBase = 5;
  const content = DESCRIBED_FONTS.map(
    (font, i) => `BT /${font.key} 12 Tf 72 ${700 - i * 40} Td (${font.line}) Tj ET`,
  ).join('\n');
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ' +
      DESCRIBED_FONTS.map((font, i) => `/${font.key} ${fontBase + 2 * i} 0 R`).join(' ') +
      ' >> >> /Contents 4 0 R >>',
    { dict: '', data: new Uint8Array(Buffer.from(content, 'latin1')) },
  ];
  DESCRIBED_FONTS.forEach((font, i) => {
    objects.push(
      `<< /Type /Font /Subtype /Type1 /BaseFont /${font.name} /FirstChar 32 /LastChar 126 /Widths ${WIDTHS} ` +
        `/Encoding /WinAnsiEncoding /FontDescriptor ${fontBase + 2 * i + 1} 0 R >>`,
    );
    objects.push(
      `<< /Type /FontDescriptor /FontName /${font.name} /Flags ${font.flags} /FontBBox [-100 -220 1000 900] ` +
        '/ItalicAngle 0 /Ascent 900 /Descent -220 /CapHeight 700 /StemV 80' +
        (font.weight === null ? '' : ` /FontWeight ${font.weight}`) +
        ' >>',
    );
  });
  return buildPdf(objects);
}

describe('font-weight and text-styles: font facts in the text content styles', () => {
  it('carries FontWeight, ForceBold and FixedPitch from the descriptor, and pdfjs\'s black guess', async () => {
    const styles = await textStyles(describedFontsPdf());
    const facts = (name: string) => styles.get(name)?.docmill;
    expect(facts('DocmillAlpha')).toEqual({ name: 'DocmillAlpha', bold: false, weight: 400, forceBold: false, fixedPitch: false });
    expect(facts('DocmillBravo')).toEqual({ name: 'DocmillBravo', bold: false, weight: 700, forceBold: false, fixedPitch: false });
    expect(facts('DocmillCharlie')).toEqual({ name: 'DocmillCharlie', bold: false, weight: null, forceBold: true, fixedPitch: false });
    expect(facts('DocmillDelta')).toEqual({ name: 'DocmillDelta', bold: false, weight: null, forceBold: false, fixedPitch: true });
    expect(facts('DocmillEcho-Black')).toMatchObject({ name: 'DocmillEcho-Black', bold: true, weight: null });
    // The fixed-pitch fact is the descriptor's: pdfjs's own family guess (from widths) says otherwise.
    expect(styles.get('DocmillDelta')?.fontFamily).not.toBe('monospace');
  });

  it('gives layout bold and monospace for those fonts through fontStyleOf', async () => {
    const styles = await textStyles(describedFontsPdf());
    const styleOf = (name: string) => fontStyleOf(styles.get(name)?.docmill, styles.get(name)?.fontFamily);
    expect(styleOf('DocmillAlpha')).toEqual({ bold: false, monospace: false });
    expect(styleOf('DocmillBravo')).toEqual({ bold: true, monospace: false });
    expect(styleOf('DocmillCharlie')).toEqual({ bold: true, monospace: false });
    expect(styleOf('DocmillDelta')).toEqual({ bold: false, monospace: true });
  });

  it('still extracts the text set in those (non-embedded) fonts', async () => {
    const doc = await convertBytes(describedFontsPdf());
    const text = flatText(mainMarkdown(doc));
    for (const font of DESCRIBED_FONTS) expect(text).toContain(font.line);
  });
});
