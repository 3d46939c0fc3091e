/** Minimal PowerPoint and OpenDocument decks built in memory for the slide converter tests. */
import { strToU8, zipSync, type Zippable } from 'fflate';

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XMLNS = `xmlns:p="${P}" xmlns:a="${A}" xmlns:r="${R}"`;

/** Slide size used by the builders: 12192000 × 6858000 EMU (16:9, 960 × 540 pt). */
export const SLIDE_WIDTH = 12_192_000;
export const SLIDE_HEIGHT = 6_858_000;

// ---- PowerPoint -------------------------------------------------------------------------------------------------

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const xfrm = (box: Box) => `<a:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.w}" cy="${box.h}"/></a:xfrm>`;

/** `<a:p>` with one run; `pPr` is the inner XML of `a:pPr` plus its attributes (`{ attrs: 'lvl="1"', inner: '<a:buChar char="•"/>' }`). */
export function para(text: string, pPr: { attrs?: string; inner?: string } = {}, rPr = ''): string {
  const properties = pPr.attrs !== undefined || pPr.inner !== undefined ? `<a:pPr ${pPr.attrs ?? ''}>${pPr.inner ?? ''}</a:pPr>` : '';
  return `<a:p>${properties}<a:r><a:rPr lang="en-US" ${rPr}/><a:t>${text}</a:t></a:r></a:p>`;
}

export const bullet = (text: string, level = 0) => para(text, { attrs: `lvl="${level}"`, inner: '<a:buChar char="•"/>' });
export const numbered = (text: string, level = 0) => para(text, { attrs: `lvl="${level}"`, inner: '<a:buAutoNum type="arabicPeriod"/>' });

let shapeId = 10;

/** A text box (not a placeholder) at `box`, holding `paragraphs` (a:p XML). */
export function textBox(box: Box, paragraphs: string, name = 'TextBox'): string {
  shapeId += 1;
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${shapeId}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr>${xfrm(box)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`
  );
}

/** A placeholder shape (`type` title, ctrTitle, body, ftr, sldNum, dt...), positioned only when `box` is given. */
export function placeholder(type: string | null, paragraphs: string, box?: Box, idx?: number): string {
  shapeId += 1;
  const ph = `<p:ph${type === null ? '' : ` type="${type}"`}${idx === undefined ? '' : ` idx="${idx}"`}/>`;
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${shapeId}" name="Placeholder"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr>` +
    `<p:spPr>${box === undefined ? '' : xfrm(box)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`
  );
}

/** A group at `box` whose members are laid out in a child space of `childBox`. */
export function group(box: Box, childBox: Box, members: string): string {
  shapeId += 1;
  return (
    `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${shapeId}" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
    `<p:grpSpPr><a:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.w}" cy="${box.h}"/>` +
    `<a:chOff x="${childBox.x}" y="${childBox.y}"/><a:chExt cx="${childBox.w}" cy="${childBox.h}"/></a:xfrm></p:grpSpPr>` +
    `${members}</p:grpSp>`
  );
}

/** A table frame; a cell is text, or `{ text, attrs }` for merge attributes (gridSpan, hMerge...). */
export function tableFrame(box: Box, rows: (string | { text: string; attrs: string })[][]): string {
  shapeId += 1;
  const body = rows
    .map(
      (cells) =>
        `<a:tr h="370840">${cells
          .map((cell) => {
            const { text, attrs } = typeof cell === 'string' ? { text: cell, attrs: '' } : cell;
            return `<a:tc ${attrs}><a:txBody><a:bodyPr/><a:lstStyle/>${text === '' ? '<a:p/>' : para(text)}</a:txBody><a:tcPr/></a:tc>`;
          })
          .join('')}</a:tr>`,
    )
    .join('');
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${shapeId}" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.w}" cy="${box.h}"/></p:xfrm>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr/>` +
    `<a:tblGrid>${(rows[0] ?? []).map(() => '<a:gridCol w="1000000"/>').join('')}</a:tblGrid>${body}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
  );
}

/** A SmartArt frame pointing at relationship `rIdDm`, and its data part with `nodes` ([id, parent id, text]). */
export function smartArt(box: Box, nodes: [string, string, string][]): { frame: string; rels: string; part: string } {
  shapeId += 1;
  const frame =
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${shapeId}" name="Diagram"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.w}" cy="${box.h}"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">` +
    `<dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></p:graphicFrame>`;
  const points =
    '<dgm:pt modelId="root" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>' +
    nodes.map(([id, , text]) => `<dgm:pt modelId="${id}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/>${para(text)}</dgm:t></dgm:pt>`).join('') +
    nodes.map(([id]) => `<dgm:pt modelId="${id}-pres" type="pres"><dgm:prSet/><dgm:spPr/></dgm:pt>`).join('');
  // Connections listed in reverse: their srcOrd, not their order in the file, gives the order of siblings.
  const connections = nodes
    .map(([id, parent], index) => `<dgm:cxn modelId="c${index}" srcId="${parent}" destId="${id}" srcOrd="${index}" destOrd="0"/>`)
    .reverse()
    .join('');
  const part =
    `<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="${A}">` +
    `<dgm:ptLst>${points}</dgm:ptLst><dgm:cxnLst>${connections}</dgm:cxnLst><dgm:bg/><dgm:whole/></dgm:dataModel>`;
  const rels = `<Relationship Id="rIdDm" Type="${REL}/diagramData" Target="../diagrams/data1.xml"/>`;
  return { frame, rels, part };
}

export function picture(box: Box, descr: string): string {
  shapeId += 1;
  return (
    `<p:pic><p:nvPicPr><p:cNvPr id="${shapeId}" name="Picture ${shapeId}" descr="${descr}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill><a:blip r:embed="rIdImage"/></p:blipFill><p:spPr>${xfrm(box)}</p:spPr></p:pic>`
  );
}

export interface PptxSlide {
  /** spTree content. */
  shapes: string;
  hidden?: boolean;
  /** Notes paragraphs (a:p XML). */
  notes?: string;
  /** Legacy comments: author index into `commentAuthors`, text. */
  legacyComments?: { author: number; text: string }[];
  /** Modern threaded comments: author GUID into `authors`, text, replies. */
  modernComments?: { author: string; text: string; replies?: { author: string; text: string }[] }[];
  /** Extra relationships of the slide (Relationship XML). */
  rels?: string;
}

export interface PptxDeck {
  slides: PptxSlide[];
  /** Order of the slides in sldIdLst, as indexes into `slides` (the part names follow `slides`). */
  order?: number[];
  core?: Record<string, string>;
  commentAuthors?: string[];
  authors?: Record<string, string>;
  /** spTree content of the layout and master (placeholders with positions). */
  layoutShapes?: string;
  masterShapes?: string;
  /** Master text styles (p:txStyles inner XML). */
  masterTextStyles?: string;
  /** Extra parts, by name. */
  extra?: Record<string, string | Uint8Array>;
}

const DEFAULT_MASTER_STYLES =
  '<p:titleStyle><a:lvl1pPr><a:buNone/></a:lvl1pPr></p:titleStyle>' +
  '<p:bodyStyle><a:lvl1pPr><a:buChar char="•"/></a:lvl1pPr><a:lvl2pPr><a:buChar char="–"/></a:lvl2pPr></p:bodyStyle>' +
  '<p:otherStyle><a:lvl1pPr/></p:otherStyle>';

const spTree = (content: string) =>
  `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${content}</p:spTree></p:cSld>`;

const relationships = (items: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;

export function makePptx(deck: PptxDeck): Uint8Array {
  const files: Zippable = {};
  const put = (name: string, content: string | Uint8Array) => {
    files[name] = typeof content === 'string' ? strToU8(content) : content;
  };
  put(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>',
  );
  put('_rels/.rels', relationships(`<Relationship Id="rId1" Type="${REL}/officeDocument" Target="ppt/presentation.xml"/>`));
  if (deck.core !== undefined) {
    const elements = Object.entries(deck.core)
      .map(([name, value]) => `<${name}>${value}</${name}>`)
      .join('');
    put(
      'docProps/core.xml',
      '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
        `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">${elements}</cp:coreProperties>`,
    );
  }

  const order = deck.order ?? deck.slides.map((_slide, index) => index);
  const presentationRels = [
    `<Relationship Id="rIdMaster" Type="${REL}/slideMaster" Target="slideMasters/slideMaster1.xml"/>`,
    `<Relationship Id="rIdAuthors" Type="${REL}/commentAuthors" Target="commentAuthors.xml"/>`,
    `<Relationship Id="rIdModernAuthors" Type="http://schemas.microsoft.com/office/2018/10/relationships/authors" Target="authors.xml"/>`,
    ...deck.slides.map((_slide, index) => `<Relationship Id="rIdSlide${index + 1}" Type="${REL}/slide" Target="slides/slide${index + 1}.xml"/>`),
  ];
  put('ppt/_rels/presentation.xml.rels', relationships(presentationRels.join('')));
  put(
    'ppt/presentation.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation ${XMLNS}>` +
      '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdMaster"/></p:sldMasterIdLst>' +
      `<p:sldIdLst>${order.map((index, position) => `<p:sldId id="${256 + position}" r:id="rIdSlide${index + 1}"/>`).join('')}</p:sldIdLst>` +
      `<p:sldSz cx="${SLIDE_WIDTH}" cy="${SLIDE_HEIGHT}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  put(
    'ppt/slideMasters/slideMaster1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><p:sldMaster ${XMLNS}>${spTree(deck.masterShapes ?? '')}<p:txStyles>${deck.masterTextStyles ?? DEFAULT_MASTER_STYLES}</p:txStyles></p:sldMaster>`,
  );
  put('ppt/slideMasters/_rels/slideMaster1.xml.rels', relationships(`<Relationship Id="rId1" Type="${REL}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`));
  put('ppt/slideLayouts/slideLayout1.xml', `<?xml version="1.0" encoding="UTF-8"?><p:sldLayout ${XMLNS}>${spTree(deck.layoutShapes ?? '')}</p:sldLayout>`);
  put('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relationships(`<Relationship Id="rId1" Type="${REL}/slideMaster" Target="../slideMasters/slideMaster1.xml"/>`));
  if (deck.commentAuthors !== undefined) {
    put(
      'ppt/commentAuthors.xml',
      `<?xml version="1.0" encoding="UTF-8"?><p:cmAuthorLst ${XMLNS}>${deck.commentAuthors
        .map((name, index) => `<p:cmAuthor id="${index}" name="${name}" initials="X" lastIdx="1" clrIdx="${index}"/>`)
        .join('')}</p:cmAuthorLst>`,
    );
  }
  if (deck.authors !== undefined) {
    put(
      'ppt/authors.xml',
      `<?xml version="1.0" encoding="UTF-8"?><p188:authorLst xmlns:a="${A}" xmlns:r="${R}" xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main">${Object.entries(deck.authors)
        .map(([id, name]) => `<p188:author id="${id}" name="${name}" initials="X" userId="${name}" providerId="None"/>`)
        .join('')}</p188:authorLst>`,
    );
  }

  deck.slides.forEach((slide, index) => {
    const number = index + 1;
    const rels = [`<Relationship Id="rIdLayout" Type="${REL}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`];
    put(
      `ppt/slides/slide${number}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld ${XMLNS}${slide.hidden ? ' show="0"' : ''}>${spTree(slide.shapes)}</p:sld>`,
    );
    if (slide.notes !== undefined) {
      rels.push(`<Relationship Id="rIdNotes" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${number}.xml"/>`);
      put(
        `ppt/notesSlides/notesSlide${number}.xml`,
        `<?xml version="1.0" encoding="UTF-8"?><p:notes ${XMLNS}>${spTree(
          placeholder('sldImg', '') + placeholder('body', slide.notes, undefined, 1) + placeholder('sldNum', para('9'), undefined, 2),
        )}</p:notes>`,
      );
    }
    if (slide.legacyComments !== undefined) {
      rels.push(`<Relationship Id="rIdComments" Type="${REL}/comments" Target="../comments/comment${number}.xml"/>`);
      put(
        `ppt/comments/comment${number}.xml`,
        `<?xml version="1.0" encoding="UTF-8"?><p:cmLst ${XMLNS}>${slide.legacyComments
          .map((comment, at) => `<p:cm authorId="${comment.author}" dt="2024-01-01T00:00:00" idx="${at + 1}"><p:pos x="10" y="10"/><p:text>${comment.text}</p:text></p:cm>`)
          .join('')}</p:cmLst>`,
      );
    }
    if (slide.modernComments !== undefined) {
      rels.push(`<Relationship Id="rIdModern" Type="http://schemas.microsoft.com/office/2018/10/relationships/comments" Target="../comments/modernComment_${number}.xml"/>`);
      const body = (text: string) => `<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p></p188:txBody>`;
      put(
        `ppt/comments/modernComment_${number}.xml`,
        `<?xml version="1.0" encoding="UTF-8"?><p188:cmLst xmlns:a="${A}" xmlns:r="${R}" xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main">${slide.modernComments
          .map(
            (comment, at) =>
              `<p188:cm id="{0000000${at}-0000-0000-0000-000000000000}" authorId="${comment.author}" created="2024-01-01T00:00:00.000">` +
              (comment.replies === undefined
                ? ''
                : `<p188:replyLst>${comment.replies
                    .map((reply, replyAt) => `<p188:reply id="{1000000${replyAt}-0000-0000-0000-000000000000}" authorId="${reply.author}" created="2024-01-02T00:00:00.000">${body(reply.text)}</p188:reply>`)
                    .join('')}</p188:replyLst>`) +
              `${body(comment.text)}</p188:cm>`,
          )
          .join('')}</p188:cmLst>`,
      );
    }
    put(`ppt/slides/_rels/slide${number}.xml.rels`, relationships(rels.join('') + (slide.rels ?? '')));
  });
  for (const [name, content] of Object.entries(deck.extra ?? {})) put(name, content);
  return zipSync(files);
}

// ---- OpenDocument -----------------------------------------------------------------------------------------------

const ODF_NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:officeooo="http://openoffice.org/2009/office"',
].join(' ');

/** A text frame at x/y/width/height in centimetres. */
export function odpFrame(cm: Box, inner: string, presentationClass?: string): string {
  return (
    `<draw:frame svg:x="${cm.x}cm" svg:y="${cm.y}cm" svg:width="${cm.w}cm" svg:height="${cm.h}cm"` +
    `${presentationClass === undefined ? '' : ` presentation:class="${presentationClass}"`}><draw:text-box>${inner}</draw:text-box></draw:frame>`
  );
}

export interface OdpDeck {
  /** draw:page elements' inner XML, with optional page attributes. */
  pages: { content: string; attributes?: string }[];
  /** office:automatic-styles of content.xml. */
  automaticStyles?: string;
  /** presentation declarations (footer-decl...), placed before the pages. */
  declarations?: string;
  /** Master page inner XML (frames), for the master named "Default". */
  masterContent?: string;
  meta?: string;
  mimetype?: string;
  encrypted?: boolean;
  extra?: Record<string, string | Uint8Array>;
}

export function makeOdp(deck: OdpDeck): Uint8Array {
  const files: Zippable = {};
  files['mimetype'] = [strToU8(deck.mimetype ?? 'application/vnd.oasis.opendocument.presentation'), { level: 0 }];
  files['META-INF/manifest.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
      '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/>' +
      `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${
        deck.encrypted
          ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="AAAA"/></manifest:encryption-data>'
          : ''
      }</manifest:file-entry></manifest:manifest>`,
  );
  files['styles.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NAMESPACES}><office:automatic-styles>` +
      '<style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="21cm"/></style:page-layout>' +
      `</office:automatic-styles><office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1">${deck.masterContent ?? ''}</style:master-page></office:master-styles></office:document-styles>`,
  );
  files['content.xml'] = strToU8(
    deck.encrypted
      ? 'encrypted bytes'
      : `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NAMESPACES}><office:automatic-styles>${deck.automaticStyles ?? ''}</office:automatic-styles>` +
          `<office:body><office:presentation>${deck.declarations ?? ''}${deck.pages
            .map((page, index) => `<draw:page draw:name="page${index + 1}" draw:master-page-name="Default" ${page.attributes ?? ''}>${page.content}</draw:page>`)
            .join('')}</office:presentation></office:body></office:document-content>`,
  );
  if (deck.meta !== undefined) {
    files['meta.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ODF_NAMESPACES}><office:meta>${deck.meta}</office:meta></office:document-meta>`);
  }
  for (const [name, content] of Object.entries(deck.extra ?? {})) files[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files);
}
