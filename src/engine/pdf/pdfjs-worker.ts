/**
 * pdfjs's worker bundle (legacy build), loaded into this thread with patches for text extraction.
 *
 * docmill runs pdfjs with its "fake worker" (the parser in the calling thread: the caller is already an engine
 * worker thread). pdfjs looks for `globalThis.pdfjsWorker` before importing its worker module; this module puts a
 * patched copy there. Why patch instead of using pdfjs as shipped: a CPU profile of text extraction put about a
 * quarter of the time into parsing and re-encoding embedded font programs for a browser, which text needs only
 * when a font lacks a ToUnicode map; up to a sixth of the wall time idle, waiting for content streams inflated
 * through web `DecompressionStream`s on libuv's pool; and a whole second pass (an operator list per page) only
 * to learn font names and weights. On the corpus PDFs joined into one file the patches take a page from about
 * 63 ms to about 14 ms, with the same text. The patches:
 *
 * 1. `inflate`, `decode-limit`: Flate and Brotli streams are inflated with node:zlib synchronously, and no
 *    stream, through node:zlib or pdfjs's own decoders, may expand beyond a size limit (`pdfStreamLimits`: a
 *    decompression bomb stops there instead of filling memory: the page fails, or keeps the text read before
 *    the limit where pdfjs reads the stream piecemeal; either way with a warning). A stream cut short gives
 *    what precedes the cut (a sync flush; pdfjs's own decoder loses the whole stream when the cut falls in its
 *    only block); any other failure, such as a wrong checksum, falls through to pdfjs's tolerant decoder, as
 *    a failing DecompressionStream did. A `DecompressionStream` shim over node:zlib handed to the bundle (no
 *    source patch) was measured against this and costs more CPU (web streams per stream), and pdfjs swallows
 *    its errors, so a bomb would be inflated a second time by pdfjs's own decoder (BENCHMARKS.md, section 3).
 * 2. `font-program`: a font's program (outlines, built-in encoding) is not parsed when text cannot need it: the
 *    font has a ToUnicode map (the authoritative text mapping) or is pdfjs's substitute for a non-embedded
 *    standard font. The Font then behaves as one whose program was read but added nothing.
 * 3. `font-weight`: the descriptor's FontWeight and ForceBold flag are kept on the Font.
 * 4. `text-styles`: text content styles also name the font and its weight facts (`docmill` below), so layout
 *    knows bold and monospaced fonts without an operator list.
 * 5. `text-transform`: the text rendering matrix is computed without two temporary matrices per glyph (the same
 *    products as `Util.transform`, fewer allocations: pdfjs computes it twice for every glyph).
 * 6. `glyph-run-*`: a glyph that continues exactly where the previous glyph of the same string ended (no
 *    character spacing between them) skips `compareWithLastPosition`, which can only find it in the same
 *    place and so returns true once the glyph is within the page's view box; that check is kept. The output is
 *    the same; the bench/pdf-extraction.ts one-font document parses about 13 % faster.
 * 7. `type1-no-cff`, `cff-no-compile`, `convert-no-tables`: a Type1 or CFF program that must be read (no
 *    ToUnicode map: its built-in encoding, glyph names, FontMatrix and accents decide the text) is read, but
 *    not compiled into an OpenType font for a renderer; everything `convert` derives for text (the Type1
 *    ToUnicode adjustment, the glyph mapping, accents) still runs. TeX documents are full of such fonts; the
 *    corpus PDFs parse about a fifth faster.
 * 8. `rulings-*`: while the text pass reads a content stream, its path operators (`m l re h`, painted by
 *    `S f B`..., transformed by the current matrix) go to a `RulingRecorder` (rulings.ts), which keeps the
 *    axis-parallel strokes and thin filled rectangles: the cell borders ruled tables are built from. One marker
 *    item `{ type: "docmillRulings", rules }` per content stream that drew any joins the text content; text
 *    items are untouched. pdfjs's own way to the paths is an operator list per page, a second full pass.
 *
 * 9. `images-*`: the images a content stream paints (an image XObject's `Do`, also when pdfjs skips it as seen
 *    before; an inline image) go to an `ImageRecorder` (ocr/image-regions.ts) as boxes under the current matrix,
 *    without decoding them; one marker item `{ type: "docmillImages", boxes }` per content stream that painted
 *    any. Mode auto decides from them which pages and image regions to OCR.
 * 10. `rtl-glyph-order`: a glyph that stands for several characters of a right-to-left script (Arabic's lam-alef
 *    ligature, a word ligature such as "الله", a presentation form pdfjs expands) gives them reversed, so that the
 *    reversal of the line from visual to logical order (pdfjs's `bidi`) puts them back in their order: stock
 *    pdfjs gives "المشكالت" for "المشكلات" (right-to-left-glyphs.ts).
 *
 * The bundle patched this way extracts text only: its fonts cannot be drawn. Rendering pages (for OCR) needs a
 * font path that keeps the programs.
 *
 * The text is the same as stock pdfjs's, item for item (strings, transforms, widths, fonts): a test reads every
 * fixture PDF with pdfjs-dist as published and with this worker and compares (patched-worker-parity.test.ts).
 * What differs is only what the patches add or skip outside the text: the font facts under `docmill`, the
 * ascent/descent of fonts whose program is not parsed, and the rule and image marker items; and in the text, the
 * order of the characters of a right-to-left glyph (patch 10).
 *
 * Each patch must match its anchor exactly once, or loading fails with PdfjsPatchError: pdfjs-dist is pinned to
 * an exact version, and a test loads the patched bundle, so an upgrade that moves an anchor fails the tests
 * instead of silently running unpatched.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { brotliDecompressSync, constants as zlibConstants, inflateSync } from 'node:zlib';
import { DocmillError } from '../../errors/docmill-error.js';
import { ImageRecorder } from './ocr/image-regions.js';
import { leanPdfjsEnvironment } from './pdfjs-environment.js';
import { rtlGlyphText } from './right-to-left-glyphs.js';
import { RulingRecorder } from './rulings.js';

/** Font facts the patched worker adds to each text content style, under `docmill`. */
export interface PdfFontFacts {
  /** The font's PostScript name (subset prefix included), or null for a font pdfjs could not load. */
  name: string | null;
  /**
   * pdfjs's own bold/black guess from the name, which it makes only for a font it substitutes (no program, no
   * standard font data): usually false; the name itself is the better witness.
   */
  bold: boolean;
  /** FontDescriptor /FontWeight, when present (a standard font without a descriptor has none). */
  weight: number | null;
  /** FontDescriptor /Flags bit 19 (ForceBold). */
  forceBold: boolean;
  /** FontDescriptor /Flags bit 1 (FixedPitch). */
  fixedPitch: boolean;
}

export class PdfjsPatchError extends DocmillError {
  constructor(message: string) {
    super('PDFJS_PATCH_FAILED', message);
  }
}

/** Where the anchor (a run of the pinned bundle's source, found exactly once) gets new code. */
type Patch = { name: string; anchor: string } & (
  | { replacement: string }
  | { insertBefore?: string; insertAfter?: string }
);

/**
 * The most one compressed stream may expand to. A PDF of a few MB can hold a stream that inflates to gigabytes
 * (a decompression bomb: 1.5 MB took 25 s and 3 GB through pdfjs's own decoder). Past this limit the stream is
 * refused: the page that needs it fails with the message below, or, where pdfjs reads the stream piecemeal as it
 * parses, keeps the text before the limit (convert-pdf.ts warns either way). Tests lower it.
 */
export const pdfStreamLimits = { maxInflatedBytes: 256 * 1024 * 1024 };

/**
 * Patch 10 (`rtl-glyph-order`) on or off. On, always, but where a test compares the text with stock pdfjs's item
 * for item (patched-worker-parity.test.ts).
 */
export const pdfjsTextOptions = { rightToLeftGlyphs: true };

/**
 * The start of the message of a stream refused for its size. It is a message, not an error class: errors thrown
 * inside pdfjs reach docmill as pdfjs's own exceptions, with only the message kept.
 */
export const STREAM_TOO_LARGE_MESSAGE = 'a compressed stream expands beyond';

export function streamTooLargeMessage(limit: number): string {
  return `${STREAM_TOO_LARGE_MESSAGE} ${Math.round(limit / 1024 / 1024)} MiB (a decompression bomb?)`;
}

const PATCHES: readonly Patch[] = [
  {
    name: 'inflate',
    anchor: `  async asyncGetBytesFromDecompressionStream(name) {
    this.stream.reset();
    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes();
`,
    insertAfter: `    return { decompressed: docmillHooks.inflate(name, bytes), compressed: bytes };
`,
  },
  {
    name: 'decode-limit',
    anchor: `    let size = this.minBufferLength;
    while (size < requested) {`,
    insertBefore: `    if (requested > docmillHooks.limits.maxInflatedBytes) {
      throw new Error(docmillHooks.streamTooLarge());
    }
`,
  },
  {
    name: 'font-program',
    anchor: `    if (!file || file.isEmpty) {
      if (file) {
        warn('Font file is empty in "' + name + '" (' + this.loadedName + ")");`,
    insertBefore: `    if (file && !file.isEmpty && (properties.hasIncludedToUnicodeMap || properties.isInternalFont)) {
      docmillHooks.stats.fontProgramsSkipped++;
      amendFallbackToUnicode(properties);
      this.toUnicode = properties.toUnicode;
      return;
    }
`,
  },
  {
    name: 'font-weight',
    anchor: `    return new Font(fontName.name, fontFile, newProperties, this.options);
  }`,
    replacement: `    const docmillFont = new Font(fontName.name, fontFile, newProperties, this.options);
    const docmillWeight = descriptor.get("FontWeight");
    docmillFont.docmillWeight = typeof docmillWeight === "number" ? docmillWeight : null;
    docmillFont.docmillFlags = flags;
    return docmillFont;
  }`,
  },
  {
    name: 'text-styles',
    anchor: `        textContent.styles[loadedName] = {
          fontFamily: font.fallbackName,
          ascent: font.ascent,
          descent: font.descent,
          vertical: font.vertical
        };`,
    replacement: `        textContent.styles[loadedName] = {
          fontFamily: font.fallbackName,
          ascent: font.ascent,
          descent: font.descent,
          vertical: font.vertical,
          docmill: {
            name: typeof font.name === "string" ? font.name : null,
            bold: font.bold === true || font.black === true,
            weight: font.docmillWeight ?? null,
            forceBold: ((font.docmillFlags ?? 0) & 0x40000) !== 0,
            fixedPitch: ((font.docmillFlags ?? 0) & 0x1) !== 0
          }
        };`,
  },
  {
    name: 'text-transform',
    anchor: `      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));
    }`,
    replacement: `      const m = textState.textMatrix;
      const c = textState.ctm;
      const t0 = m[0] * tsm[0], t1 = m[1] * tsm[0], t2 = m[2] * tsm[3], t3 = m[3] * tsm[3];
      const t4 = m[2] * tsm[5] + m[4], t5 = m[3] * tsm[5] + m[5];
      return [c[0] * t0 + c[2] * t1, c[1] * t0 + c[3] * t1, c[0] * t2 + c[2] * t3, c[1] * t2 + c[3] * t3, c[0] * t4 + c[2] * t5 + c[4], c[1] * t4 + c[3] * t5 + c[5]];
    }`,
  },
  {
    name: 'glyph-run-start',
    anchor: `      const scale = textState.fontMatrix[0] * textState.fontSize;
      for (let i = 0, ii = glyphs.length; i < ii; i++) {
        const glyph = glyphs[i];
        const {
          category,
          originalCharCode
        } = glyph;
        if (category.isInvisibleFormatMark) {
          continue;
        }
`,
    insertBefore: `      let docmillRun = false;
`,
    insertAfter: `        const docmillContinues = docmillRun;
        docmillRun = false;
`,
  },
  {
    name: 'glyph-run-check',
    anchor: `        if (!category.isZeroWidthDiacritic && !compareWithLastPosition(scaledDim)) {`,
    replacement: `        if (!category.isZeroWidthDiacritic && !(docmillContinues ? docmillInView(textContentItem.prevTransform, scaledDim) : compareWithLastPosition(scaledDim))) {`,
  },
  {
    name: 'glyph-run-end',
    anchor: `        if (!intersector) {
          textChunk.str.push(glyphUnicode);
        }
`,
    insertAfter: `        docmillRun = scaledDim !== 0 && !charSpacing && !font.vertical && !intersector;
`,
  },
  {
    name: 'glyph-run-view',
    anchor: `    function compareWithLastPosition(glyphWidth) {`,
    insertBefore: `    function docmillInView(transform, glyphWidth) {
      const posX = transform[4];
      const posY = transform[5];
      return !(posX + glyphWidth < viewBox[0] || posX > viewBox[2] || posY < viewBox[1] || posY > viewBox[3]);
    }
`,
  },
  {
    name: 'rulings-recorder',
    anchor: `    const preprocessor = new EvaluatorPreprocessor(stream, xref, stateManager);
    let textState, currentTextState;
`,
    insertAfter: `    let docmillRulings = null;
`,
  },
  {
    name: 'rulings-paths',
    anchor: `        switch (fn | 0) {
          case OPS.setFont:
            const fontNameArg`,
    replacement: `        switch (fn | 0) {
          case OPS.moveTo:
            (docmillRulings ??= docmillHooks.rulings()).moveTo(args[0], args[1], textState.ctm);
            break;
          case OPS.lineTo:
            docmillRulings?.lineTo(args[0], args[1], textState.ctm);
            break;
          case OPS.curveTo:
            docmillRulings?.curveTo(args[4], args[5], textState.ctm);
            break;
          case OPS.curveTo2:
          case OPS.curveTo3:
            docmillRulings?.curveTo(args[2], args[3], textState.ctm);
            break;
          case OPS.rectangle:
            (docmillRulings ??= docmillHooks.rulings()).rectangle(args[0], args[1], args[2], args[3], textState.ctm);
            break;
          case OPS.closePath:
            docmillRulings?.closePath();
            break;
          case OPS.stroke:
          case OPS.closeStroke:
            if (fn === OPS.closeStroke) docmillRulings?.closePath();
            docmillRulings?.paint(true, false);
            break;
          case OPS.fill:
          case OPS.eoFill:
            docmillRulings?.paint(false, true);
            break;
          case OPS.fillStroke:
          case OPS.eoFillStroke:
          case OPS.closeFillStroke:
          case OPS.closeEOFillStroke:
            if (fn === OPS.closeFillStroke || fn === OPS.closeEOFillStroke) docmillRulings?.closePath();
            docmillRulings?.paint(true, true);
            break;
          case OPS.endPath:
            docmillRulings?.paint(false, false);
            break;
          case OPS.setFont:
            const fontNameArg`,
  },
  {
    name: 'rulings-emit',
    anchor: `      flushTextContentItem();
      enqueueChunk();
      resolve();
`,
    insertBefore: `      if (docmillRulings) {
        const docmillRules = docmillRulings.take();
        const docmillFilled = docmillRulings.takeBoxes();
        if (docmillRules.length > 0 || docmillFilled.length > 0) textContent.items.push({ type: "docmillRulings", rules: docmillRules, boxes: docmillFilled });
        if (docmillRulings.overflowed) docmillHooks.stats.rulingsDropped++;
        docmillRulings = null;
      }
`,
  },
  {
    name: 'images-recorder',
    anchor: `    let docmillRulings = null;
`,
    insertAfter: `    let docmillImages = null;
`,
  },
  {
    name: 'images-inline',
    anchor: `          case OPS.moveTo:
            (docmillRulings ??= docmillHooks.rulings())`,
    insertBefore: `          case OPS.endInlineImage:
            (docmillImages ??= docmillHooks.images()).image(null, textState.ctm);
            break;
`,
  },
  {
    name: 'images-xobject',
    anchor: `              if (type.name !== "Form") {
                emptyXObjectCache.set(name, dict.objId, true);`,
    insertBefore: `              if (type.name === "Image") (docmillImages ??= docmillHooks.images()).image(name, textState.ctm);
`,
  },
  {
    name: 'images-repeat',
    anchor: `            if (isValidName && emptyXObjectCache.getByName(name)) {
              break;`,
    replacement: `            if (isValidName && emptyXObjectCache.getByName(name)) {
              docmillImages?.repeat(name, textState.ctm);
              break;`,
  },
  {
    name: 'images-emit',
    anchor: `      flushTextContentItem();
      enqueueChunk();
      resolve();
`,
    insertBefore: `      if (docmillImages) {
        const docmillBoxes = docmillImages.take();
        if (docmillBoxes.length > 0) textContent.items.push({ type: "docmillImages", boxes: docmillBoxes });
        docmillImages = null;
      }
`,
  },
  {
    name: 'type1-no-cff',
    anchor: `    const charstrings = data.charstrings;
    const type2Charstrings = this.getType2Charstrings(charstrings);
    const subrs = this.getType2Subrs(data.subrs);
    this.charstrings = charstrings;
    this.data = this.wrap(name, type2Charstrings, this.charstrings, subrs, properties);`,
    replacement: `    const charstrings = data.charstrings;
    this.charstrings = charstrings;
    this.data = null;
    docmillHooks.stats.fontProgramsNotCompiled++;`,
  },
  {
    name: 'cff-no-compile',
    anchor: `    const compiler = new CFFCompiler(this.cff);
    this.seacs = this.cff.seacs;
    try {
      this.data = compiler.compile();
    } catch {
      warn("Failed to compile font " + properties.loadedName);
      this.data = file;
    }`,
    replacement: `    this.seacs = this.cff.seacs;
    this.data = null;
    docmillHooks.stats.fontProgramsNotCompiled++;`,
  },
  {
    name: 'convert-no-tables',
    anchor: `    const unitsPerEm = properties.fontMatrix ? 1 / Math.max(...properties.fontMatrix.slice(0, 4).map(Math.abs)) : 1000;`,
    insertBefore: `    return null;
`,
  },
  {
    name: 'rtl-glyph-order',
    anchor: `        const glyphUnicode = glyph.unicode;`,
    replacement: `        const glyphUnicode = glyph.unicode.length > 1 || glyph.unicode.charCodeAt(0) >= 0xfb1d ? docmillHooks.visualGlyphText(glyph.unicode) : glyph.unicode;`,
  },
];

const IMPORT_META_URL = 'import.meta.url';
const EXPORT_LINE = 'export { WorkerMessageHandler };';

/** Where `anchor` occurs in the text the pieces make, as [piece, offset], up to two occurrences. */
function findAnchor(pieces: readonly string[], anchor: string): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < pieces.length && found.length < 2; i++) {
    const piece = pieces[i] as string;
    for (let at = piece.indexOf(anchor); at >= 0 && found.length < 2; at = piece.indexOf(anchor, at + 1)) found.push([i, at]);
    // An occurrence across the joint with the next piece (the pieces are the source and patches' code).
    if (i + 1 < pieces.length && found.length < 2) {
      const tail = piece.slice(Math.max(0, piece.length - anchor.length + 1));
      let head = '';
      for (let j = i + 1; j < pieces.length && head.length < anchor.length - 1; j++) head += (pieces[j] as string).slice(0, anchor.length - 1 - head.length);
      const across = (tail + head).indexOf(anchor);
      if (across >= 0 && across < tail.length) found.push([-1, -1]);
    }
  }
  return found;
}

/**
 * Applies every patch to the worker bundle's source, one after the other, and makes it a function body; pure
 * (tests call it). The text is kept as pieces (slices of the source, each patch's code) joined once at the end:
 * splicing each patch into the whole source made a new string of 2.3 million characters per patch, searched
 * again for the next: about a second and a hundred MB of garbage for every thread that loads pdfjs.
 */
export function patchWorkerSource(source: string, fileUrl: string): string {
  const pieces = [source];
  for (const patch of PATCHES) {
    const found = findAnchor(pieces, patch.anchor);
    const [where] = found;
    if (found.length !== 1 || !where || where[0] < 0) {
      throw new PdfjsPatchError(
        `pdfjs worker patch "${patch.name}" ${found.length === 0 ? 'found no' : 'found more than one'} anchor: ` +
          'pdfjs-dist is not the pinned version (see package.json)',
      );
    }
    const [index, at] = where;
    const piece = pieces[index] as string;
    const code =
      'replacement' in patch ? patch.replacement : `${patch.insertBefore ?? ''}${patch.anchor}${patch.insertAfter ?? ''}`;
    pieces.splice(index, 1, piece.slice(0, at), code, piece.slice(at + patch.anchor.length));
  }
  const exportLine = findAnchor(pieces, EXPORT_LINE);
  const [exportAt] = exportLine;
  if (exportLine.length !== 1 || !exportAt || exportAt[0] < 0) {
    throw new PdfjsPatchError('pdfjs worker bundle: its export line is not where this version keeps it');
  }
  const [index, at] = exportAt;
  const piece = pieces[index] as string;
  pieces.splice(index, 1, piece.slice(0, at), piece.slice(at + EXPORT_LINE.length));
  // A classic script has no import.meta or export; the worker only uses the URL to find its wasm decoders. Written
  // into the pieces, the wrapper too, so that the whole text is made once, by the join.
  const url = JSON.stringify(fileUrl);
  const parts = ['(function (docmillHooks) {\n"use strict";\n'];
  for (const part of pieces) {
    let from = 0;
    for (let found = part.indexOf(IMPORT_META_URL); found >= 0; found = part.indexOf(IMPORT_META_URL, from)) {
      parts.push(part.slice(from, found), url);
      from = found + IMPORT_META_URL.length;
    }
    parts.push(from === 0 ? part : part.slice(from));
  }
  parts.push('\nreturn WorkerMessageHandler;\n})');
  return parts.join('');
}

/**
 * The text of UTF-8 `bytes` (a JavaScript source), each character above U+007F written as its `\uXXXX` escape, so
 * that it is stored one byte a character. V8 keeps a script's source for the thread's life (functions compile
 * lazily from it), and one character above U+00FF makes it a two-byte string: the worker bundle's nine (an en dash
 * in a copyright line, test URLs, a ligature in a map, all inside string literals, where an escape is the same
 * character) doubled it to 4.6 MB in every thread that reads a page with pdfjs, and each copy made while patching
 * it. An escape is the same character in a string, a template, a regular expression and an identifier (only the
 * text of a function or a pattern shows it as written), and in a comment it is a comment still; after a backslash
 * it would not be, and the text is then decoded as it stands.
 */
export function latin1Source(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let escapable = true;
  // Each run of bytes above 0x7f is one or more whole UTF-8 sequences (a sequence's bytes are all above it).
  const escaped = text.replace(/[\x80-\xff]+/g, (run: string, at: number) => {
    if (text.charCodeAt(at - 1) === 0x5c) escapable = false;
    const decoded = Buffer.from(run, 'latin1').toString('utf8');
    let out = '';
    for (let i = 0; i < decoded.length; i++) out += `\\u${decoded.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
  return escapable ? escaped : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** What the patches did in this thread (tests read it to see that a patch took effect). */
export interface PdfjsPatchStats {
  fontProgramsSkipped: number;
  /** Type1 and CFF programs read for their encoding and metrics but not compiled into a font for a renderer. */
  fontProgramsNotCompiled: number;
  streamsInflated: number;
  /** Streams stopped at `pdfStreamLimits.maxInflatedBytes`. */
  streamsRefused: number;
  /** Content streams that drew more rule candidates than `MAX_RULINGS_PER_STREAM` (the rest were dropped). */
  rulingsDropped: number;
}

/** The hooks the patched bundle calls. */
const hooks = {
  stats: { fontProgramsSkipped: 0, fontProgramsNotCompiled: 0, streamsInflated: 0, streamsRefused: 0, rulingsDropped: 0 } satisfies PdfjsPatchStats,
  limits: pdfStreamLimits,
  /** A recorder for the ruling lines of one content stream (created at its first path). */
  rulings(): RulingRecorder {
    return new RulingRecorder();
  },
  /** A recorder for the images one content stream paints (created at its first image). */
  images(): ImageRecorder {
    return new ImageRecorder();
  },
  /** A glyph's characters as pdfjs's line reversal needs them (rtlGlyphText, right-to-left-glyphs.ts). */
  visualGlyphText(text: string): string {
    return pdfjsTextOptions.rightToLeftGlyphs ? rtlGlyphText(text) : text;
  },
  /** Counts the refusal and gives the message pdfjs's decoders throw (pdfjs passes errors on as plain text). */
  streamTooLarge(): string {
    hooks.stats.streamsRefused++;
    return streamTooLargeMessage(pdfStreamLimits.maxInflatedBytes);
  },
  /** Inflates a Flate ("deflate", zlib-wrapped) or Brotli stream; null lets pdfjs decode it itself. */
  inflate(format: string, bytes: Uint8Array): Uint8Array | null {
    const maxOutputLength = pdfStreamLimits.maxInflatedBytes;
    try {
      const inflated =
        format === 'deflate'
          ? inflateSync(bytes, { maxOutputLength, finishFlush: zlibConstants.Z_SYNC_FLUSH })
          : format === 'brotli'
            ? brotliDecompressSync(bytes, { maxOutputLength })
            : null;
      if (inflated) hooks.stats.streamsInflated++;
      return inflated;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(hooks.streamTooLarge(), { cause: error });
      // Damaged: pdfjs's JavaScript decoder recovers what it can.
    }
    return null;
  },
};

let installed = false;

/** Evaluates the patched worker bundle in this thread once, before the first pdfjs document is opened. */
export function installPatchedPdfjsWorker(): void {
  if (installed) return;
  const file = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  const fileUrl = pathToFileURL(file).href;
  const script = new vm.Script(patchWorkerSource(latin1Source(readFileSync(file)), fileUrl), {
    filename: file,
    // The JPEG 2000 decoder's fallback is loaded with import(): let it resolve like a module's import would.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const restore = leanPdfjsEnvironment();
  try {
    const factory = script.runInThisContext() as (h: typeof hooks) => unknown;
    // The bundle sets globalThis.pdfjsWorker itself; pdfjs's display layer uses it instead of importing the file.
    factory(hooks);
  } finally {
    restore();
  }
  installed = true;
}

/** A copy of the patch counters of this thread. */
export function pdfjsPatchStats(): PdfjsPatchStats {
  return { ...hooks.stats };
}
