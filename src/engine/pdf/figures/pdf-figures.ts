/**
 * A PDF's pictures in its model, when the result keeps pictures (`removeBase64Images` false, what `--images`
 * asks): each raster image the page draws, and each figure drawn with vector paths (figure-regions.ts) rendered
 * cropped to its region with its labels at `dpi`, becomes a `figure` block at its place in the page's reading
 * order, its Markdown `![caption](data:image/png;name=p3-figure-1;base64,…)`, with its page, box, caption and
 * picture. The engine's thread lifts the data: URIs out as files (backend/embedded-images.ts), the pipeline names
 * them by the name given (`p3-figure-1.png`) and writes each distinct one once.
 *
 * Left out: a raster over the whole page (a scan's page or a background: the page, not a picture on it), one a
 * vector figure covers (it is in the figure's rendering), and decorations with a side under 16 pixels. The text
 * of the page is not changed: a chart's labels stay in the text where the layout put them.
 */
import type { ModelBlock, ModelPage } from '../../model.js';
import type { Converter, DocumentModel } from '../../model.js';
import { MAX_PICTURES } from '../../../backend/embedded-images.js';
import type { PictureRendering } from '../../../backend/parse-backend.js';
import { DEFAULT_IMAGE_DPI } from '../../../common/processing-settings.js';
import { convertPdf } from '../convert-pdf.js';
import { cutShort, recoverTruncatedPdf } from '../recover.js';
import { normaliseBbox } from '../document-layout.js';
import type { Rect } from '../types.js';
import { beforeRightCaption, sideOf } from '../side-captions.js';
import { figureRegions, type PageText } from './figure-regions.js';
import { drawsOnlyWhatTextPassSees, pagePictureless } from './pictureless.js';
import type { OpenPage, PageRaster, PictureFile } from './page-pictures.js';

/** A picture with a side under this many pixels is a decoration, not decoded (the pipeline's threshold too). */
const MIN_PIXEL_SIDE = 16;
/** A raster covering more than this share of the page both ways is the page itself. */
const WHOLE_PAGE = 0.9;
export const FIGURE_SOURCE = 'pdf_figure';

/** The PDF converter, with the pictures added when the result keeps them. */
export const convertPdfWithFigures: Converter = async (input) => {
  const model = await convertPdf(input);
  if (input.options.removeBase64Images === false) await addPdfFigures(model, input.bytes, input.pictures);
  return model;
};

interface Figure {
  rect: Rect;
  /** A raster's key into the document's decoded pictures; undefined for a vector figure. */
  raster?: string;
}

/** Pictures decoded once per document, by their stream's key, and the name each got where it first appeared. */
interface DocumentPictures {
  files: Map<string, PictureFile>;
  names: Map<string, string>;
}

/**
 * Adds the figure blocks of every page of `model` that PDFium can read, and with `rendering.pages` each page's
 * picture (`page-<n>`); a warning when PDFium cannot open the file. A page the text pass shows holds no picture is
 * not loaded (pictureless.ts), nor the file when no page is left.
 */
export async function addPdfFigures(model: DocumentModel, bytes: Uint8Array, rendering: Partial<PictureRendering> = {}): Promise<void> {
  const dpi = rendering.dpi ?? DEFAULT_IMAGE_DPI;
  const pages = model.pages.filter((page) => page.status !== 'failed' && page.width && page.height);
  // A page rendered whole is loaded whatever it draws.
  const toRead = rendering.pages || !drawsOnlyWhatTextPassSees(bytes) ? pages : pages.filter((page) => !pagePictureless(page));
  if (toRead.length === 0) return;
  // Loaded with the first document that keeps its pictures: PDFium's module stays out of threads that never do.
  const { PictureReader } = await import('./page-pictures.js');
  // A file cut short is read as recover.ts repaired it, as its text was (PDFium cannot open it as it is).
  const repaired = cutShort(bytes) ? recoverTruncatedPdf(bytes) : null;
  const reader = (repaired && (await PictureReader.open(repaired))) || (await PictureReader.open(bytes));
  if (!reader) {
    (model.warnings ??= []).push('The pictures of the PDF could not be read: PDFium could not open it.');
    return;
  }
  try {
    const pictures: DocumentPictures = { files: new Map(), names: new Map() };
    for (const page of toRead) {
      reader.page(page.pageNumber, (open) => {
        addPageFigures(open, page, pictures, dpi);
        if (rendering.pages) addPageImage(open, page, dpi);
      });
    }
  } finally {
    reader.close();
  }
}

function addPageFigures(open: OpenPage, page: ModelPage, pictures: DocumentPictures, dpi: number): void {
  const decode = (raster: PageRaster, read: () => PictureFile): void => {
    if (pictures.files.has(raster.key) || Math.min(raster.width, raster.height) < MIN_PIXEL_SIDE) return;
    // One past the limit is enough for the pipeline to refuse the document.
    if (pictures.files.size > MAX_PICTURES) return;
    const file = read();
    if (file.bytes.byteLength > 0) pictures.files.set(raster.key, file);
  };
  const graphics = open.graphics(decode);
  const { width, height } = graphics;
  const texts = page.blocks.filter((block) => block.bbox && !block.furniture).map((block) => pageText(block, width, height));
  const regions = figureRegions(graphics.paths, texts, width, height);
  const inRegion = (rect: Rect) => regions.some((region) => centreOf(rect, (x, y) => x >= region.x0 && x <= region.x1 && y >= region.y0 && y <= region.y1));
  const rasters = graphics.rasters.filter(
    (raster) =>
      pictures.files.has(raster.key) &&
      !(raster.rect.x1 - raster.rect.x0 > WHOLE_PAGE * width && raster.rect.y1 - raster.rect.y0 > WHOLE_PAGE * height) &&
      !inRegion(raster.rect),
  );
  const figures: Figure[] = [...rasters.map((raster) => ({ rect: raster.rect, raster: raster.key })), ...regions.map((rect) => ({ rect }))];
  figures.sort((a, b) => a.rect.y0 - b.rect.y0 || a.rect.x0 - b.rect.x0);
  const captions = captionsOf(
    page.blocks,
    figures.map((figure) => normaliseBbox(figure.rect, width, height)),
  );
  let number = 0;
  for (const [index, figure] of figures.entries()) {
    let file: PictureFile | undefined;
    // Numbered by their order on the page; a picture shown before keeps the name it got where it first appeared.
    let name = `p${page.pageNumber}-figure-${++number}`;
    if (figure.raster !== undefined) {
      file = pictures.files.get(figure.raster);
      const named = pictures.names.get(figure.raster);
      if (named === undefined) pictures.names.set(figure.raster, name);
      else name = named;
    } else {
      const png = open.render(padded(figure.rect, width, height), dpi);
      file = png ? { bytes: png, mediaType: 'image/png' } : undefined;
    }
    if (!file) continue;
    const bbox = normaliseBbox(figure.rect, width, height);
    const caption = captions.get(index);
    const uri = dataUri(file, name);
    const block: ModelBlock = {
      type: 'figure',
      label: figure.raster === undefined ? 'drawing' : 'picture',
      markdown: `![${caption ?? ''}](${uri})`,
      bbox,
      source: FIGURE_SOURCE,
      confidence: { layout: null, ocr: null },
      image: uri,
      ...(caption === undefined ? {} : { caption }),
    };
    page.blocks.splice(placeOf(page.blocks, bbox), 0, block);
  }
}

/** The whole page at `dpi`, as the page's picture, named `page-<n>`. */
function addPageImage(open: OpenPage, page: ModelPage, dpi: number): void {
  const png = open.render('page', dpi);
  if (png) page.image = dataUri({ bytes: png, mediaType: 'image/png' }, `page-${page.pageNumber}`);
}

function dataUri(file: PictureFile, name: string): string {
  return `data:${file.mediaType};name=${name};base64,${Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString('base64')}`;
}

/** A little white around a drawing, so the rendering does not cut its outermost strokes and glyphs. */
const PADDING = 4;

function padded(rect: Rect, width: number, height: number): Rect {
  return { x0: Math.max(0, rect.x0 - PADDING), y0: Math.max(0, rect.y0 - PADDING), x1: Math.min(width, rect.x1 + PADDING), y1: Math.min(height, rect.y1 + PADDING) };
}

function centreOf(rect: Rect, test: (x: number, y: number) => boolean): boolean {
  return test((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2);
}

function pageText(block: ModelBlock, width: number, height: number): PageText {
  const [x0, y0, x1, y1] = block.bbox!;
  return {
    rect: { x0: x0 * width, y0: y0 * height, x1: x1 * width, y1: y1 * height },
    chars: block.markdown.replace(/\s+/g, '').length,
    ...(block.type === 'table' ? { table: true } : {}),
    ...(block.type === 'caption' ? { caption: true } : {}),
    ...(block.type === 'title' || block.type === 'section_header' ? { heading: true } : {}),
  };
}

function rectOf([x0, y0, x1, y1]: readonly [number, number, number, number]): Rect {
  return { x0, y0, x1, y1 };
}

function overlapsHorizontally(a: readonly number[], b: readonly number[]): boolean {
  return a[0]! < b[2]! && a[2]! > b[0]!;
}

/** How far (share of the page's height) a caption may sit below or above its figure. */
const CAPTION_REACH = 0.08;

/**
 * The caption of each figure (by its index), as plain text for the alt text: caption blocks overlapping a figure
 * horizontally just below or just above it, or standing beside it (side-captions.ts), the closest pairs first, each
 * caption to one figure; a figure and a caption as close below as another is above go together (below is where
 * most captions of figures are).
 */
function captionsOf(blocks: readonly ModelBlock[], boxes: readonly ModelBlock['bbox'][]): Map<number, string> {
  const pairs: { figure: number; block: ModelBlock; distance: number }[] = [];
  boxes.forEach((bbox, figure) => {
    if (!bbox) return;
    for (const block of blocks) {
      if (block.type !== 'caption' || !block.bbox) continue;
      if (!overlapsHorizontally(block.bbox, bbox)) {
        // A caption beside it (side-captions.ts): normalised boxes, a page one unit wide.
        const beside = sideOf(rectOf(bbox), rectOf(block.bbox), 1);
        if (beside) pairs.push({ figure, block, distance: beside.distance + 2e-6 });
        continue;
      }
      const below = block.bbox[1] - bbox[3];
      const above = bbox[1] - block.bbox[3];
      if (below >= -0.01 && below <= CAPTION_REACH) pairs.push({ figure, block, distance: Math.max(0, below) });
      else if (above >= -0.01 && above <= CAPTION_REACH) pairs.push({ figure, block, distance: Math.max(0, above) + 1e-6 });
    }
  });
  pairs.sort((a, b) => a.distance - b.distance);
  const captions = new Map<number, string>();
  const taken = new Set<ModelBlock>();
  for (const { figure, block } of pairs) {
    if (captions.has(figure) || taken.has(block)) continue;
    taken.add(block);
    captions.set(figure, block.markdown.replace(/\s+/g, ' ').replace(/[[\]]/g, (bracket) => (bracket === '[' ? '(' : ')')).trim());
  }
  return captions;
}

/**
 * Where a figure goes among the page's blocks: before the first block of the body that starts at or below its top
 * in the same column or a caption beside it on its right (side-captions.ts), whichever comes first, else after the
 * last one above it in that column, else before the first block of the body starting below its top (a logo in a
 * margin), else after the body (before the footer).
 */
function placeOf(blocks: readonly ModelBlock[], bbox: ModelBlock['bbox']): number {
  const body = (block: ModelBlock) => !block.furniture && block.bbox;
  if (bbox) {
    const below = blocks.findIndex((block) => body(block) && block.bbox![1] >= bbox[1] - 0.002 && overlapsHorizontally(block.bbox!, bbox));
    const caption = beforeRightCaption(blocks, rectOf(bbox), 1, (block) => (body(block) && block.type === 'caption' ? rectOf(block.bbox!) : undefined));
    if (caption >= 0 && (below < 0 || caption < below)) return caption;
    if (below >= 0) return below;
    let above = -1;
    blocks.forEach((block, index) => {
      if (body(block) && block.bbox![3] <= bbox[1] + 0.002 && overlapsHorizontally(block.bbox!, bbox)) above = index;
    });
    if (above >= 0) return above + 1;
    const after = blocks.findIndex((block) => body(block) && block.bbox![1] >= bbox[1] - 0.002);
    if (after >= 0) return after;
  }
  let last = -1;
  blocks.forEach((block, index) => {
    if (!block.furniture) last = index;
  });
  if (last >= 0) return last + 1;
  let leading = 0;
  while (leading < blocks.length && blocks[leading]!.furniture && blocks[leading]!.type === 'page_header') leading++;
  return leading;
}
