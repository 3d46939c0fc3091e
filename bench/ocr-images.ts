/**
 * Benchmark "PDF OCR of images on text pages" (issue 11, mode auto's image rule). Run by hand, never by the tests:
 *
 *   npx tsx bench/ocr-images.ts                 # about a minute on a loaded 2-core machine
 *   npx tsx bench/ocr-images.ts --pages 3 --text-pages 100
 *
 * (a) Per kind of page, a document of --pages pages of that kind read by the engine's converter in this process in
 *     mode fast and mode auto: seconds, regions and pages rendered by PDFium, blocks by source, and word recall of
 *     the text in the images (the words drawn in the picture; "–" where the image holds none). Kinds: text only;
 *     text with a 60 pt logo; text over a page-sized background picture; text with a scanned figure (a picture of
 *     a line of text); text with a photo (a grey gradient: no text); a scan (a page-sized picture of text) with a
 *     stamped page number in its text layer.
 * (b) What the image rule costs a text PDF: --text-pages pages of running text with a logo and a page-sized
 *     background picture each, against the same pages without images, mode auto (nothing is rendered: the images
 *     are only recorded by the text pass), median after a warm-up.
 *
 *     The two documents alternate, --rounds times. --only-b runs (b) alone (no OCR: it runs on a tree without
 *     the image rule too, for a before/after comparison).
 *
 * Flags: --pages N (2) · --text-pages N (60) · --rounds N (7) · --only-b
 */
import { performance } from 'node:perf_hooks';
import { parseOptionsSchema, type PdfMode } from '../src/contract/options.js';
import type { DocumentModel } from '../src/engine/model.js';
import { convertPdf } from '../src/engine/pdf/convert-pdf.js';
import { PageRenderer } from '../src/engine/pdf/ocr/render-page.js';
import { terminateOcrWorkers } from '../src/engine/pdf/ocr/tesseract.js';
import { gradient, mixedPdf, pictureOfText, solid, type MixedPage } from '../test/engine/pdf/image-pdfs.js';
import { markdownTable } from './lib/table.js';
import { wordRecall } from './lib/word-recall.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const PAGES = flag('pages', 2);
const TEXT_PAGES = flag('text-pages', 60);
const ROUNDS = flag('rounds', 7);
const ONLY_B = process.argv.includes('--only-b');

const WORDS = 'the annual report lists revenue costs staff plans for each region and the board reviews them every quarter'.split(' ');

/** Lines of running 10 pt text from y = 700 down to `bottom`, distinct per page. */
function runningText(page: number, bottom = 80, skip?: { from: number; to: number }) {
  const lines: MixedPage['text'] = [];
  let n = page * 7;
  for (let y = 700; y >= bottom; y -= 14) {
    if (skip && y <= skip.to && y >= skip.from) continue;
    const words: string[] = [];
    for (let i = 0; i < 12; i++) words.push(WORDS[(n++ * 5 + i * 3) % WORDS.length]!);
    lines.push({ x: 72, y, text: `${page + 1}.${y} ${words.join(' ')}`, size: 10 });
  }
  return lines;
}

const FIGURE_TEXT = 'Revenue grew by twelve percent';
const SCAN_TEXT = ['The committee approved the annual budget.', 'Members reviewed the maintenance schedule.'];

async function kinds(): Promise<{ name: string; pages: MixedPage[]; imageText: string | undefined }[]> {
  const figure = await pictureOfText([{ x: 12, y: 50, text: FIGURE_TEXT, size: 20 }], 360, 90);
  const scan = await pictureOfText(
    SCAN_TEXT.map((text, i) => ({ x: 72, y: 700 - 40 * i, text, size: 18 })),
    612,
    792,
    150,
  );
  const of = (make: (page: number) => MixedPage) => Array.from({ length: PAGES }, (_, i) => make(i));
  return [
    { name: 'text only', pages: of((i) => ({ text: runningText(i), images: [] })), imageText: undefined },
    {
      name: 'text + 60 pt logo',
      pages: of((i) => ({ text: runningText(i, 80), images: [{ bitmap: solid(64), x: 480, y: 720, width: 60, height: 60 }] })),
      imageText: undefined,
    },
    {
      name: 'text over page-sized picture',
      pages: of((i) => ({ text: runningText(i), images: [{ bitmap: gradient(200, 260), x: 0, y: 0, width: 612, height: 792 }] })),
      imageText: undefined,
    },
    {
      name: 'text + scanned figure',
      pages: of((i) => ({
        text: runningText(i, 80, { from: 380, to: 500 }),
        images: [{ bitmap: figure, x: 72, y: 400, width: 360, height: 90 }],
      })),
      imageText: FIGURE_TEXT,
    },
    {
      name: 'text + photo (no text)',
      pages: of((i) => ({
        text: runningText(i, 80, { from: 280, to: 600 }),
        images: [{ bitmap: gradient(300, 200), x: 72, y: 300, width: 400, height: 290 }],
      })),
      imageText: undefined,
    },
    {
      name: 'scan + stamped page number',
      pages: of((i) => ({ text: [{ x: 520, y: 30, text: `Page ${i + 1}`, size: 10 }], images: [{ bitmap: scan, x: 0, y: 0, width: 612, height: 792 }] })),
      imageText: SCAN_TEXT.join(' '),
    },
  ];
}

let renders = { pages: 0, regions: 0 };
const render = PageRenderer.prototype.render;
PageRenderer.prototype.render = function (this: PageRenderer, ...args: Parameters<PageRenderer['render']>) {
  if (args[2]) renders.regions++;
  else renders.pages++;
  return render.apply(this, args);
};

function convert(bytes: Uint8Array, mode: PdfMode): Promise<DocumentModel> {
  return convertPdf({
    bytes,
    fileName: 'bench.pdf',
    extension: '.pdf',
    options: parseOptionsSchema.parse({ parsers: [{ type: 'pdf', mode }] }),
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  // Warm-up: pdfjs, PDFium and the tesseract worker load once per thread.
  const warm = await kinds();
  if (!ONLY_B) await convert(mixedPdf(warm[3]!.pages.slice(0, 1)), 'auto');

  const rows: string[][] = [];
  for (const kind of ONLY_B ? [] : warm) {
    const pdf = mixedPdf(kind.pages);
    for (const mode of ['fast', 'auto'] as const) {
      renders = { pages: 0, regions: 0 };
      const start = performance.now();
      const doc = await convert(pdf, mode);
      const seconds = (performance.now() - start) / 1000;
      const blocks = doc.pages.flatMap((page) => page.blocks);
      const bySource = (source: string) => blocks.filter((block) => block.source === source).length;
      const ocrMarkdown = blocks
        .filter((block) => block.source !== 'native_text')
        .map((block) => block.markdown)
        .join('\n');
      const recall = kind.imageText ? wordRecall(kind.pages.map(() => kind.imageText).join('\n'), ocrMarkdown) : undefined;
      rows.push([
        kind.name,
        mode,
        seconds.toFixed(2),
        String(renders.pages),
        String(renders.regions),
        String(bySource('native_text')),
        String(bySource('layout_ocr')),
        String(bySource('full_page')),
        recall === undefined ? '–' : recall.toFixed(2),
      ]);
    }
  }
  if (!ONLY_B) console.log(`(a) ${PAGES} page(s) per document, engine converter in this process\n`);
  if (!ONLY_B) console.log(
    markdownTable(['kind', 'mode', 's', 'pages rendered', 'regions rendered', 'native blocks', 'layout_ocr', 'full_page', 'image-text recall'], rows),
  );

  const withImages: MixedPage[] = [];
  const plain: MixedPage[] = [];
  for (let i = 0; i < TEXT_PAGES; i++) {
    const text = runningText(i);
    plain.push({ text, images: [] });
    withImages.push({
      text,
      images: [
        { bitmap: gradient(200, 260), x: 0, y: 0, width: 612, height: 792 },
        { bitmap: solid(64), x: 480, y: 720, width: 60, height: 60 },
      ],
    });
  }
  // The two documents alternate round by round, so a change in the machine's load falls on both alike.
  const documents = [
    { name: 'no images', pdf: mixedPdf(plain), times: [] as number[] },
    { name: 'logo + page-sized background', pdf: mixedPdf(withImages), times: [] as number[] },
  ];
  for (const document of documents) await convert(document.pdf, 'auto');
  renders = { pages: 0, regions: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const document of documents) {
      const start = performance.now();
      await convert(document.pdf, 'auto');
      document.times.push(performance.now() - start);
    }
  }
  const timings = documents.map((document) => {
    const ms = median(document.times);
    return [document.name, String(TEXT_PAGES), ms.toFixed(0), ((TEXT_PAGES * 1000) / ms).toFixed(0)];
  });
  console.log(`\n(b) text pages, mode auto, median of ${ROUNDS} alternating rounds; pages rendered: ${renders.pages + renders.regions}\n`);
  console.log(markdownTable(['pages have', 'pages', 'ms', 'pages/s'], timings));
  await terminateOcrWorkers();
}

await main();
