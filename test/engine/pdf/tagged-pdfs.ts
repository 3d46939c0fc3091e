/**
 * Tagged PDFs made with pdf-lib for the tests: text drawn in marked content (`/P <</MCID n>> BDC … EMC`) and a
 * structure tree naming each marked content's element, with the parent tree PDFium reads a page's elements from,
 * as Word, LibreOffice and accessible exports write them.
 */
import { PDFArray, PDFDocument, PDFName, PDFNumber, PDFOperator, PDFOperatorNames, StandardFonts, type PDFPage, type PDFRef } from 'pdf-lib';

export interface TaggedLine {
  /** The structure type of the element the line belongs to: `H1`, `H2`, `P`, `LI`… */
  tag: string;
  text: string;
  size: number;
  bold?: boolean;
  /** Lines with the same `element` key belong to one element (a paragraph over several lines, or pages). */
  element: string;
}

/** A page's running header and footer, drawn as artifacts (`/Artifact BMC … EMC`), outside the structure tree. */
export interface PageArtifacts {
  top?: string;
  bottom?: string;
}

/** One page a list of lines, drawn top down from y = 720 at 1.4 × their size apart. */
export async function taggedPdf(pages: readonly (readonly TaggedLine[])[], artifacts: readonly PageArtifacts[] = []): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const context = pdf.context;
  const rootRef = context.nextRef();
  const documentRef = context.nextRef();
  const elements = new Map<string, { ref: PDFRef; tag: string; kids: (number | { page: PDFRef; mcid: number })[]; firstPage: PDFRef }>();
  const parentTreeNums: (PDFNumber | PDFRef)[] = [];
  pages.forEach((lines, pageIndex) => {
    const page: PDFPage = pdf.addPage([612, 792]);
    const pageRef = page.ref;
    page.node.set(PDFName.of('StructParents'), PDFNumber.of(pageIndex));
    const parents: PDFRef[] = [];
    let y = 720;
    lines.forEach((line, mcid) => {
      let element = elements.get(line.element);
      if (!element) {
        element = { ref: context.nextRef(), tag: line.tag, kids: [], firstPage: pageRef };
        elements.set(line.element, element);
      }
      element.kids.push(element.firstPage === pageRef ? mcid : { page: pageRef, mcid });
      parents.push(element.ref);
      const font = line.bold ? bold : regular;
      // The property list written as it stands: pdf-lib's operator arguments take no dictionary.
      page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of(line.tag), `<</MCID ${mcid}>>`]));
      page.drawText(line.text, { x: 72, y, size: line.size, font });
      page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
      y -= line.size * 1.4;
    });
    const margins = artifacts[pageIndex] ?? {};
    for (const [text, y] of [[margins.top, 770], [margins.bottom, 30]] as const) {
      if (text === undefined) continue;
      page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDFName.of('Artifact')]));
      page.drawText(text, { x: 72, y, size: 9, font: regular });
      page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    }
    const parentsRef = context.register(context.obj(parents));
    parentTreeNums.push(PDFNumber.of(pageIndex), parentsRef);
  });
  const documentKids: PDFRef[] = [];
  for (const element of elements.values()) {
    const kids = element.kids.map((kid) => (typeof kid === 'number' ? PDFNumber.of(kid) : context.obj({ Type: 'MCR', Pg: kid.page, MCID: kid.mcid })));
    context.assign(element.ref, context.obj({ Type: 'StructElem', S: element.tag, P: documentRef, Pg: element.firstPage, K: kids }));
    documentKids.push(element.ref);
  }
  context.assign(documentRef, context.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: documentKids }));
  const nums = PDFArray.withContext(context);
  for (const value of parentTreeNums) nums.push(value);
  context.assign(rootRef, context.obj({ Type: 'StructTreeRoot', K: documentRef, ParentTree: context.obj({ Nums: nums }), ParentTreeNextKey: pages.length }));
  pdf.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  pdf.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  return pdf.save({ useObjectStreams: false });
}

/**
 * A one-page PDF whose structure tree is hostile: `cycle`, two sections that hold each other; `deep`, the heading
 * under 3,000 nested elements. Its heading (tagged H1, 20 pt) and a line of body text are drawn either way.
 */
export async function hostileTreePdf(kind: 'cycle' | 'deep'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(0));
  page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('H1'), '<</MCID 0>>']));
  page.drawText('A heading in a hostile tree', { x: 72, y: 700, size: 20, font });
  page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  page.drawText('Body text of the page, set at the body size.', { x: 72, y: 660, size: 11, font });
  const context = pdf.context;
  const root = context.nextRef();
  const heading = context.nextRef();
  const chain = Array.from({ length: kind === 'cycle' ? 2 : 3_000 }, () => context.nextRef());
  chain.forEach((ref, i) => {
    // In the cycle the second section holds the first again; in the chain each element holds the next.
    const kids = kind === 'cycle' ? (i === 0 ? [chain[1]!, heading] : [chain[0]!]) : [chain[i + 1] ?? heading];
    context.assign(ref, context.obj({ Type: 'StructElem', S: kind === 'cycle' ? 'Sect' : 'Div', P: i === 0 ? root : chain[i - 1]!, Pg: page.ref, K: kids }));
  });
  context.assign(heading, context.obj({ Type: 'StructElem', S: 'H1', P: chain[chain.length - 1]!, Pg: page.ref, K: [PDFNumber.of(0)] }));
  context.assign(root, context.obj({ Type: 'StructTreeRoot', K: chain[0]!, ParentTree: context.obj({ Nums: [PDFNumber.of(0), context.obj([heading])] }) }));
  pdf.catalog.set(PDFName.of('StructTreeRoot'), root);
  pdf.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  return pdf.save({ useObjectStreams: false });
}
