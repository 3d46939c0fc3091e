/** Minimal Word packages built in memory for the DOCX tests. */
import { strToU8, zipSync, type Zippable } from 'fflate';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const M = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

export function paragraph(text: string, style?: string): string {
  const properties = style === undefined ? '' : `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>`;
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

export function table(rows: string[][], headerRows = 0): string {
  const body = rows
    .map((cells, index) => {
      const properties = index < headerRows ? '<w:trPr><w:tblHeader/></w:trPr>' : '';
      return `<w:tr>${properties}${cells.map((cell) => `<w:tc>${paragraph(cell)}</w:tc>`).join('')}</w:tr>`;
    })
    .join('');
  return `<w:tbl><w:tblPr/><w:tblGrid>${rows[0]?.map(() => '<w:gridCol/>').join('') ?? ''}</w:tblGrid>${body}</w:tbl>`;
}

export interface DocxParts {
  body: string;
  core?: string;
  extra?: Record<string, string | Uint8Array>;
  documentRels?: string;
}

export function makeDocx({ body, core, extra = {}, documentRels }: DocxParts): Uint8Array {
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/>` +
        (core === undefined ? '' : `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>`) +
        `</Relationships>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:m="${M}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ),
  };
  if (documentRels !== undefined) files['word/_rels/document.xml.rels'] = strToU8(documentRels);
  if (core !== undefined) files['docProps/core.xml'] = strToU8(core);
  for (const [name, content] of Object.entries(extra)) files[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files);
}

export function coreXml(properties: Record<string, string>): string {
  const elements = Object.entries(properties)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">' +
    elements +
    '</cp:coreProperties>'
  );
}

/**
 * A package whose paragraphs use Word's built-in list styles (`ListBullet`, `ListBullet2`, …, `ListNumber2`, …):
 * each style numbers its paragraphs through a list of its own, at that list's first level, as Word's template
 * defines them; only the style's name says how deep its items stand.
 */
export function listStylesDocx(items: readonly (readonly [style: string, text: string])[]): Uint8Array {
  const styles = [...new Set(items.map(([style]) => style))];
  const numbered = styles.filter((style) => style.startsWith('ListBullet') || style.startsWith('ListNumber'));
  const styleName = (id: string) => id.replace(/^List(Bullet|Number)(\d?)$/, (_, kind: string, level: string) => `List ${kind}${level ? ` ${level}` : ''}`);
  const stylesXml =
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
    styles
      .map((id) => {
        const n = numbered.indexOf(id) + 1;
        const numbering = n > 0 ? `<w:pPr><w:numPr><w:numId w:val="${n}"/></w:numPr></w:pPr>` : '';
        return `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${styleName(id)}"/>${numbering}</w:style>`;
      })
      .join('') +
    '</w:styles>';
  const numberingXml =
    `<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="${W}">` +
    numbered
      .map((id, i) => {
        const format = id.startsWith('ListBullet') ? 'bullet' : 'decimal';
        return `<w:abstractNum w:abstractNumId="${i}"><w:lvl w:ilvl="0"><w:numFmt w:val="${format}"/><w:pStyle w:val="${id}"/></w:lvl></w:abstractNum>`;
      })
      .join('') +
    numbered.map((_, i) => `<w:num w:numId="${i + 1}"><w:abstractNumId w:val="${i}"/></w:num>`).join('') +
    '</w:numbering>';
  const documentRels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId2" Type="${R}/numbering" Target="numbering.xml"/>` +
    '</Relationships>';
  return makeDocx({
    body: items.map(([style, text]) => paragraph(text, style)).join(''),
    documentRels,
    extra: { 'word/styles.xml': stylesXml, 'word/numbering.xml': numberingXml },
  });
}

const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const WPS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';
const V = 'urn:schemas-microsoft-com:vml';

/** How a text box is written: DrawingML alone, or in mc:AlternateContent with the Fallback Word writes (VML), an empty one, or none. */
export type TextBoxForm = 'drawing' | 'with-vml' | 'empty-fallback' | 'no-fallback';

/**
 * A run anchoring a text box whose paragraphs are `lines`, as Word writes it (a `wps:wsp` shape holding
 * `w:txbxContent`), in the form asked for. The namespaces are declared on the run, so it fits any body.
 */
export function textBoxRun(lines: readonly string[], form: TextBoxForm): string {
  const content = `<w:txbxContent>${lines.map((line) => paragraph(line)).join('')}</w:txbxContent>`;
  const drawing =
    `<w:drawing><wp:anchor><wp:extent cx="1828800" cy="914400"/><wp:docPr id="1" name="Text Box 1"/>` +
    `<a:graphic><a:graphicData uri="${WPS}"><wps:wsp><wps:spPr/><wps:txbx>${content}</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic>` +
    `</wp:anchor></w:drawing>`;
  const run = (inner: string) => `<w:r xmlns:mc="${MC}" xmlns:wp="${WP}" xmlns:a="${A}" xmlns:wps="${WPS}" xmlns:v="${V}">${inner}</w:r>`;
  if (form === 'drawing') return run(drawing);
  const choice = `<mc:Choice Requires="wps">${drawing}</mc:Choice>`;
  const fallback = {
    'with-vml': `<mc:Fallback><w:pict><v:shape><v:textbox>${content}</v:textbox></v:shape></w:pict></mc:Fallback>`,
    'empty-fallback': '<mc:Fallback/>',
    'no-fallback': '',
  }[form];
  return run(`<mc:AlternateContent>${choice}${fallback}</mc:AlternateContent>`);
}
