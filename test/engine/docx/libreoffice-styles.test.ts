/**
 * What LibreOffice writes into a .docx: its own style names for quotations and preformatted text, and superscript
 * or subscript given as a distance raised or lowered in a smaller size (`w:position`), read as what they are.
 */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const STYLES =
  `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
  '<w:style w:type="paragraph" w:styleId="Quotations"><w:name w:val="Quotations"/><w:pPr><w:ind w:left="567" w:right="567"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="PreformattedText"><w:name w:val="Preformatted Text"/><w:rPr><w:rFonts w:ascii="DejaVu Sans Mono"/></w:rPr></w:style>' +
  '</w:styles>';

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/></Relationships>`;

const run = (text: string, properties = '') => `<w:r><w:rPr>${properties}</w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

const convert = async (body: string) => markdownOf(await convertDocx(input(makeDocx({ body, documentRels: RELS, extra: { 'word/styles.xml': STYLES } }), {}, 'exported.docx')));

describe("LibreOffice's Word export", () => {
  it('reads its Quotations paragraphs as a quote and its Preformatted Text lines as one code block, indents kept', async () => {
    const body = paragraph('Clean water is a public trust.', 'Quotations') + paragraph('code sample', 'PreformattedText') + paragraph('  indented line', 'PreformattedText') + paragraph('After.');
    expect(await convert(body)).toBe('> Clean water is a public trust.\n\n```\ncode sample\n  indented line\n```\n\nAfter.');
  });

  it('reads runs raised or lowered in a smaller size as superscript and subscript, and a nudge at the same size as text', async () => {
    const body =
      `<w:p>${run('H')}${run('2', '<w:position w:val="-2"/><w:sz w:val="19"/>')}${run('O and E = mc')}${run('2', '<w:position w:val="8"/><w:sz w:val="19"/>')}${run('.')}</w:p>` +
      `<w:p>${run('Step ')}${run('3', '<w:position w:val="4"/>')}${run(' done.')}</w:p>`;
    expect(await convert(body)).toBe('H₂O and E = mc².\n\nStep 3 done.');
  });
});
