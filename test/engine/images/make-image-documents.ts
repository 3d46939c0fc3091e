/**
 * Documents of every format with pictures whose bytes are known, built in memory for the `--images` tests: each
 * shows a photo, a chart, a logo twice and a tiny decoration, in that order, with alt text where the format has it.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { makeDocx } from '../docx/make-docx.js';
import { makeEpub } from '../epub/make-epub.js';
import { makeOdt } from '../odt/make-odt.js';
import { makeOdp, makePptx, picture } from '../slides/make-deck.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(strToU8(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/** A real RGB PNG of `width` × `height` pixels, its colours from `seed` (different seeds, different bytes). */
export function png(width: number, height: number, seed: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rows.set([(x * seed) & 0xff, (y * 7 + seed) & 0xff, (x + y + seed * 13) & 0xff], y * (1 + width * 3) + 1 + x * 3);
  }
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', new Uint8Array())]);
}

/** A GIF header declaring `width` × `height` (the engine and docmill never decode it: its bytes are kept as they are). */
export function gif(width: number, height: number): Uint8Array {
  return new Uint8Array([...strToU8('GIF89a'), width & 0xff, width >> 8, height & 0xff, height >> 8, 0, 0, 0, 0x3b]);
}

export const SVG = strToU8('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="teal"/></svg>');

export const PICTURES = {
  photo: png(64, 48, 3),
  chart: gif(200, 120),
  logo: png(32, 32, 9),
  /** Below the decoration threshold (16 px a side). */
  dot: png(4, 4, 5),
};

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What every document below shows, in order, once each: the dot is left out as a decoration. */
export const EXPECTED = [PICTURES.photo, PICTURES.chart, PICTURES.logo].map(sha256);

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC = 'http://schemas.openxmlformats.org/drawingml/2006/picture';

function wordPicture(id: string, descr: string): string {
  return (
    `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/>` +
    `<wp:docPr id="1" name="Picture" descr="${descr}"/><a:graphic xmlns:a="${A}"><a:graphicData uri="${PIC}"><pic:pic xmlns:pic="${PIC}">` +
    `<pic:nvPicPr><pic:cNvPr id="0" name="picture"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr/></pic:pic>` +
    `</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
  );
}

export function docxWithPictures(): Uint8Array {
  const para = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
  return makeDocx({
    body:
      para('Quarterly report') +
      wordPicture('rIdPhoto', 'Team photo') +
      para('Revenue grew.') +
      wordPicture('rIdChart', 'Figure 1: Revenue by region') +
      wordPicture('rIdLogo', 'Logo') +
      para('Contact') +
      wordPicture('rIdLogo', 'Logo') +
      wordPicture('rIdDot', ''),
    documentRels:
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}">` +
      `<Relationship Id="rIdPhoto" Type="${R}/image" Target="media/photo.png"/>` +
      `<Relationship Id="rIdChart" Type="${R}/image" Target="media/chart.gif"/>` +
      `<Relationship Id="rIdLogo" Type="${R}/image" Target="media/logo.png"/>` +
      `<Relationship Id="rIdDot" Type="${R}/image" Target="media/dot.png"/></Relationships>`,
    extra: { 'word/media/photo.png': PICTURES.photo, 'word/media/chart.gif': PICTURES.chart, 'word/media/logo.png': PICTURES.logo, 'word/media/dot.png': PICTURES.dot },
  });
}

export function pptxWithPictures(): Uint8Array {
  const rel = (id: string, target: string) => `<Relationship Id="${id}" Type="${R}/image" Target="../media/${target}"/>`;
  const box = (y: number) => ({ x: 100_000, y, w: 2_000_000, h: 1_500_000 });
  const withId = (xml: string, id: string) => xml.replace('r:embed="rIdImage"', `r:embed="${id}"`);
  return makePptx({
    slides: [
      { shapes: withId(picture(box(100_000), 'Team photo'), 'rIdPhoto') + withId(picture(box(2_000_000), 'Figure 1: Revenue by region'), 'rIdChart'), rels: rel('rIdPhoto', 'photo.png') + rel('rIdChart', 'chart.gif') },
      { shapes: withId(picture(box(100_000), 'Logo'), 'rIdLogo') + withId(picture(box(2_000_000), ''), 'rIdDot'), rels: rel('rIdLogo', 'logo.png') + rel('rIdDot', 'dot.png') },
      { shapes: withId(picture(box(100_000), 'Logo'), 'rIdLogo2'), rels: rel('rIdLogo2', 'logo.png') },
    ],
    extra: { 'ppt/media/photo.png': PICTURES.photo, 'ppt/media/chart.gif': PICTURES.chart, 'ppt/media/logo.png': PICTURES.logo, 'ppt/media/dot.png': PICTURES.dot },
  });
}

function drawingPicture(row: number, id: string, descr: string): string {
  return (
    `<xdr:oneCellAnchor><xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="952500" cy="952500"/>` +
    `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${row + 2}" name="Picture" descr="${descr}"/><xdr:cNvPicPr/></xdr:nvPicPr>` +
    `<xdr:blipFill><a:blip r:embed="${id}"/></xdr:blipFill><xdr:spPr/></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`
  );
}

export function xlsxWithPictures(): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['region', 'sales'], ['North', 10]]), 'Data');
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['contact']]), 'Contact');
  const files = unzipSync(new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
  const drawing = (anchors: string) =>
    strToU8(`<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="${A}" xmlns:r="${R}">${anchors}</xdr:wsDr>`);
  const rels = (items: string) => strToU8(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}">${items}</Relationships>`);
  const image = (id: string, target: string) => `<Relationship Id="${id}" Type="${R}/image" Target="../media/${target}"/>`;
  files['xl/worksheets/_rels/sheet1.xml.rels'] = rels(`<Relationship Id="rIdD" Type="${R}/drawing" Target="../drawings/drawing1.xml"/>`);
  files['xl/worksheets/_rels/sheet2.xml.rels'] = rels(`<Relationship Id="rIdD" Type="${R}/drawing" Target="../drawings/drawing2.xml"/>`);
  // Listed out of order: the chart sits lower on the sheet than the photo.
  files['xl/drawings/drawing1.xml'] = drawing(drawingPicture(20, 'rIdC', 'Figure 1: Revenue by region') + drawingPicture(3, 'rIdP', 'Team photo'));
  files['xl/drawings/_rels/drawing1.xml.rels'] = rels(image('rIdP', 'photo.png') + image('rIdC', 'chart.gif'));
  files['xl/drawings/drawing2.xml'] = drawing(drawingPicture(1, 'rIdL', 'Logo') + drawingPicture(5, 'rIdD', '') + drawingPicture(9, 'rIdL', 'Logo'));
  files['xl/drawings/_rels/drawing2.xml.rels'] = rels(image('rIdL', 'logo.png') + image('rIdD', 'dot.png'));
  Object.assign(files, { 'xl/media/photo.png': PICTURES.photo, 'xl/media/chart.gif': PICTURES.chart, 'xl/media/logo.png': PICTURES.logo, 'xl/media/dot.png': PICTURES.dot });
  return zipSync(files);
}

const odfFrame = (href: string, title: string) =>
  `<draw:frame svg:width="3cm" svg:height="2cm"><draw:image xlink:href="${href}"/>${title ? `<svg:title>${title}</svg:title>` : ''}</draw:frame>`;

const ODF_PICTURES = { 'Pictures/photo.png': PICTURES.photo, 'Pictures/chart.gif': PICTURES.chart, 'Pictures/logo.png': PICTURES.logo, 'Pictures/dot.png': PICTURES.dot };

export function odtWithPictures(): Uint8Array {
  const p = (inner: string) => `<text:p>${inner}</text:p>`;
  return makeOdt({
    body:
      p('Quarterly report') +
      p(odfFrame('Pictures/photo.png', 'Team photo')) +
      p('Revenue grew.') +
      p(odfFrame('Pictures/chart.gif', 'Figure 1: Revenue by region')) +
      p(odfFrame('Pictures/logo.png', 'Logo')) +
      p('Contact') +
      p(odfFrame('Pictures/logo.png', 'Logo')) +
      p(odfFrame('Pictures/dot.png', '')),
    extra: ODF_PICTURES,
  });
}

export function odpWithPictures(): Uint8Array {
  const frame = (y: number, href: string, description: string) =>
    `<draw:frame svg:x="1cm" svg:y="${y}cm" svg:width="6cm" svg:height="4cm"><draw:image xlink:href="${href}"/>${description ? `<svg:desc>${description}</svg:desc>` : ''}</draw:frame>`;
  return makeOdp({
    pages: [
      { content: frame(1, 'Pictures/photo.png', 'Team photo') + frame(8, 'Pictures/chart.gif', 'Figure 1: Revenue by region') },
      { content: frame(1, 'Pictures/logo.png', 'Logo') + frame(8, 'Pictures/dot.png', '') },
      { content: frame(1, 'Pictures/logo.png', 'Logo') },
    ],
    extra: ODF_PICTURES,
  });
}

export function epubWithPictures(): Uint8Array {
  return makeEpub({
    chapters: [
      { id: 'c1', href: 'text/one.xhtml', body: '<h1>Report</h1><p><img src="../images/photo.png" alt="Team photo"/></p><p>Revenue grew.</p><figure><img src="../images/chart.gif" alt="Figure 1: Revenue by region"/></figure>' },
      { id: 'c2', href: 'text/two.xhtml', body: '<h2>Contact</h2><p><img src="../images/logo.png" alt="Logo"/> <img src="../images/dot.png" alt=""/></p><p><img src="/OEBPS/images/logo.png" alt="Logo"/></p>' },
    ],
    extra: { 'OEBPS/images/photo.png': PICTURES.photo, 'OEBPS/images/chart.gif': PICTURES.chart, 'OEBPS/images/logo.png': PICTURES.logo, 'OEBPS/images/dot.png': PICTURES.dot },
  });
}

const dataUri = (type: string, bytes: Uint8Array) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

export function htmlWithPictures(): Uint8Array {
  return strToU8(
    '<!DOCTYPE html><html><head><title>Report</title></head><body><main><h1>Quarterly report</h1>' +
      `<p><img src="${dataUri('image/png', PICTURES.photo)}" alt="Team photo"></p><p>Revenue grew strongly in every region this quarter.</p>` +
      `<figure><img src="${dataUri('image/gif', PICTURES.chart)}" alt="Figure 1: Revenue by region"></figure>` +
      `<p><img src="${dataUri('image/png', PICTURES.logo)}" alt="Logo"> <img src="${dataUri('image/png', PICTURES.dot)}" alt=""></p>` +
      `<p>Contact us. <img src="https://images.example.com/remote.png" alt="Remote"> <img src="${dataUri('image/png', PICTURES.logo)}" alt="Logo"></p>` +
      '</main></body></html>',
  );
}

export const DOCUMENTS: Record<string, () => Uint8Array> = {
  'report.docx': docxWithPictures,
  'deck.pptx': pptxWithPictures,
  'book.xlsx': xlsxWithPictures,
  'report.odt': odtWithPictures,
  'deck.odp': odpWithPictures,
  'book.epub': epubWithPictures,
  'page.html': htmlWithPictures,
};
