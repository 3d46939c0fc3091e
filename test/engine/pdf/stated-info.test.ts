import { readdirSync, readFileSync } from 'node:fs';
import type { PDFRef} from 'pdf-lib';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../../src/engine/pdf/convert-pdf.js';
import { decodeTextString, readStatedInfo } from '../../../src/engine/pdf/stated-info.js';
import { convertBytes, convertWithPdfjs, FIXTURE_DIR, PDF_CORPUS } from './helpers.js';

/** A one-page PDF with the given document information, as pdf-lib writes it (a table, or object streams). */
async function pdfWith(info: { title?: string; author?: string; lang?: string; literalTitle?: string }, objectStreams = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([300, 200]);
  page.drawText('Body text of the page.', { x: 20, y: 150, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  if (info.title) doc.setTitle(info.title);
  if (info.literalTitle) {
    doc.setTitle('placeholder');
    const infoDict = doc.context.lookup(doc.context.trailerInfo.Info as PDFRef, PDFDict);
    infoDict.set(PDFName.of('Title'), PDFString.of(info.literalTitle));
  }
  if (info.author) doc.setAuthor(info.author);
  if (info.lang) doc.catalog.set(PDFName.of('Lang'), PDFHexString.fromText(info.lang));
  return doc.save({ useObjectStreams: objectStreams });
}

async function pdfjsInfo(bytes: Uint8Array): Promise<{ title?: unknown; author?: unknown; language?: unknown }> {
  const { doc } = await openPdf(bytes);
  try {
    const info = (await doc.getMetadata()).info as unknown as Record<string, unknown>;
    return { title: info.Title, author: info.Author, language: info.Language ?? undefined };
  } finally {
    await doc.destroy();
  }
}

describe('the document information read from the bytes', () => {
  it('reads what pdfjs reads, or leaves it to pdfjs, on every PDF fixture and corpus file', async () => {
    const files = [
      ...readdirSync(FIXTURE_DIR).filter((name) => name.endsWith('.pdf')).map((name) => new URL(name, FIXTURE_DIR)),
      ...readdirSync(PDF_CORPUS).filter((name) => name.endsWith('.pdf')).map((name) => new URL(name, PDF_CORPUS)),
    ];
    let answered = 0;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      const stated = readStatedInfo(bytes);
      if (!stated) continue;
      answered++;
      expect({ title: stated.title, author: stated.author, language: stated.language }, file.pathname).toEqual(await pdfjsInfo(bytes));
    }
    expect(answered).toBeGreaterThan(files.length / 2);
  });

  it('decodes UTF-16 titles, escaped literal strings and the language as pdfjs does', async () => {
    const bytes = await pdfWith({ title: 'Résumé — 2024 ✓', author: 'Zoë Ångström', lang: 'de-CH' });
    expect(readStatedInfo(bytes)).toEqual({ title: 'Résumé — 2024 ✓', author: 'Zoë Ångström', language: 'de-CH', xmp: false, outlines: false });
    const literal = await pdfWith({ literalTitle: 'A (nested) title\\with \u0080 a bullet' });
    expect(readStatedInfo(literal)?.title).toBe((await pdfjsInfo(literal)).title);
    expect(decodeTextString('\u0093ve \u0084 \u00e9')).toBe('\ufb01ve \u2014 \u00e9');
  });

  it('leaves a document whose information is in object streams to pdfjs, and the converter still reports it', async () => {
    const bytes = await pdfWith({ title: 'Packed Title', author: 'Packed Author', lang: 'fr' }, true);
    expect(readStatedInfo(bytes)).toBeUndefined();
    const doc = await convertBytes(bytes, { mode: 'fast' });
    expect(doc.metadata).toMatchObject({ title: 'Packed Title', author: 'Packed Author', language: 'fr', numPages: 1, totalPages: 1 });
  });

  it('reads a hybrid file (a table with an /XRefStm, as Word writes), and whether its XMP packet names a title', async () => {
    const word = new Uint8Array(readFileSync(new URL('right_to_left_01.pdf', PDF_CORPUS)));
    const stated = readStatedInfo(word);
    expect(stated).toEqual({ author: 'Ahmad Jaber T Algadeeb', language: 'en-US', xmp: true, xmpNames: { title: false, author: true }, outlines: false });
    expect({ title: stated!.title, author: stated!.author, language: stated!.language }).toEqual(await pdfjsInfo(word));
  });

  it('leaves a missing title to pdfjs only where the XMP packet names one', async () => {
    const withXmp = async (xmp: string, compress: boolean) => {
      const doc = await PDFDocument.load(await pdfWith({ author: 'Ann Author' }));
      const stream = compress ? doc.context.flateStream(xmp, { Type: 'Metadata', Subtype: 'XML' }) : doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
      doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
      return doc.save({ useObjectStreams: false });
    };
    const rdf = (inner: string) =>
      `<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">${inner}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const creatorOnly = await withXmp(rdf('<dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li></rdf:Seq></dc:creator>'), true);
    expect(readStatedInfo(creatorOnly)?.xmpNames).toEqual({ title: false, author: true });
    const titled = await withXmp(rdf('<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Packet Title</rdf:li></rdf:Alt></dc:title>'), false);
    expect(readStatedInfo(titled)?.xmpNames).toEqual({ title: true, author: false });
    // Either way the converter reports what pdfjs reads: no title, or the packet's.
    expect((await convertBytes(creatorOnly, { mode: 'fast' })).metadata).toEqual((await convertWithPdfjs(creatorOnly, { mode: 'fast' })).metadata);
    expect((await convertBytes(titled, { mode: 'fast' })).metadata).toMatchObject({ title: 'Packet Title', author: 'Ann Author' });
  });

  it('gives the same metadata whether LiteParse or pdfjs opens the document', async () => {
    const bytes = await pdfWith({ title: 'Quarterly  Report\n2024', author: 'Finance Team', lang: 'en-GB' });
    const native = await convertBytes(bytes, { mode: 'fast' });
    const pdfjs = await convertWithPdfjs(bytes, { mode: 'fast' });
    expect(native.metadata).toEqual(pdfjs.metadata);
    expect(native.metadata).toMatchObject({ title: 'Quarterly Report 2024', author: 'Finance Team', language: 'en-GB' });
  });
});
