/**
 * The package XML rule: a part of an OOXML, ODF or EPUB package that is not well-formed XML makes the document
 * CORRUPT_DOCUMENT, naming the part and the line, in every format; the check passes every XML part of the real
 * documents in the corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../src/contract/options.js';
import { parseDocument } from '../../src/engine/engine.js';
import { decodeXml, xmlDefect } from '../../src/engine/package-xml.js';
import { CORPUS_URL } from '../helpers/corpus.js';
import { makeEpub, xhtml } from './epub/make-epub.js';

const options = parseOptionsSchema.parse({});

function corpus(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(relative, CORPUS_URL)));
}

/** A corpus package with one part replaced. */
function withPart(relative: string, part: string, text: string): Uint8Array {
  const files = unzipSync(corpus(relative));
  if (files[part] === undefined) throw new Error(`${relative} has no part ${part}`);
  files[part] = strToU8(text);
  return zipSync(files);
}

/** The first `keep` characters of a part of a corpus package, the rest of the package as it was. */
function truncatedPart(relative: string, part: string, keep: number): Uint8Array {
  const files = unzipSync(corpus(relative));
  const data = files[part];
  if (data === undefined) throw new Error(`${relative} has no part ${part}`);
  return withPart(relative, part, strFromU8(data).slice(0, keep));
}

describe('xmlDefect', () => {
  it('passes well-formed XML: declaration, DOCTYPE with an internal subset, comments, CDATA, references, a BOM', () => {
    const texts = [
      '<a/>',
      '\ufeff<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="urn:w"><w:t xml:space="preserve"> x </w:t></w:document>',
      '<!DOCTYPE book [<!ENTITY e "a>b">]>\n<book>&e;</book>',
      '<a><!-- <b> & --><![CDATA[ <c> & ]]><?pi <d>?></a>\n<!-- after -->\n',
      '<a b=\'1 &amp; 2\' c = "&#10;&#x1F;">&lt;&gt;&quot;&apos;&amp;&nbsp;</a>',
      '<root>text > more</root>',
    ];
    for (const text of texts) expect(xmlDefect(text), text).toBeNull();
  });

  it('an entity to read from a file or a URL is refused: well-formed, but no package needs one (XXE)', () => {
    expect(xmlDefect('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>')).toMatchObject({ line: 2, kind: 'external-entity' });
    expect(xmlDefect('<!DOCTYPE x [<!ENTITY % p PUBLIC "-//x//y" "http://example.com/x.dtd">]><x/>')).toMatchObject({ kind: 'external-entity' });
    // An external DTD named by the DOCTYPE itself (as EPUB 2's NCX does) declares no entity: it is never read.
    expect(xmlDefect('<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">\n<ncx/>')).toBeNull();
  });

  it('an empty part, or one of white space only, is left to its reader', () => {
    expect(xmlDefect('')).toBeNull();
    expect(xmlDefect(' \r\n\t')).toBeNull();
  });

  it('finds what truncation, overwriting and bit flips break, with the line', () => {
    const cases: [string, number, RegExp][] = [
      ['<?xml version="1.0"?>\n<Relationships xmlns="urn:r"><Relationship Id="rId1" Type="urn', 2, /malformed start tag/],
      ['<?xml version="1.0"?>\n<a>\n<b>text</b>\n', 4, /ends with <a> open/],
      ['<?xml version="1.0"?>\n', 2, /no root element/],
      ['<a>\n<b></c>\n</a>', 2, /<\/c> closes <b>/],
      ['<a/>\n<b/>', 2, /second root/],
      ['junk<a/>', 1, /outside the root/],
      ['<a>\nAT&T</a>', 2, /bare &/],
      ['<a b="x & y"/>', 1, /bare &/],
      ['<a><!-- never closed </a>', 1, /not closed/],
      ['<a><b c="1"d="2"/></a>', 1, /malformed start tag/],
      ['<a>< b/></a>', 1, /malformed start tag/],
      ['</a>', 1, /no element open/],
      // Stray markup inside the XML declaration (a campaign mutant fast-xml-parser threw on: "Pi Tag is not closed").
      ['<?xml version="1.0" enc<?xoding="UTF-8" standalone="yes"?>\n<a/>', 1, /malformed XML declaration/],
      ['<a/>\n<?xml version="1.0"?>', 2, /malformed XML declaration/],
      ['<a><? no target ?></a>', 1, /without a target/],
    ];
    for (const [text, line, reason] of cases) {
      const defect = xmlDefect(text);
      expect(defect, text).not.toBeNull();
      expect(defect?.line, text).toBe(line);
      expect(defect?.reason, text).toMatch(reason);
    }
  });

  it('every XML part of every package in the corpus is well-formed (encrypted parts aside)', () => {
    const packages = /\.(docx|docm|xlsx|xlsm|xlsb|pptx|pptm|odt|ods|odp|epub)$/;
    let checked = 0;
    for (const folder of readdirSync(CORPUS_URL, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      for (const name of readdirSync(new URL(`${folder.name}/`, CORPUS_URL)).filter((file) => packages.test(file))) {
        // Password-protected: an OLE container (no zip), or ODF parts that are ciphertext.
        if (/protected|password/.test(name)) continue;
        for (const [part, data] of Object.entries(unzipSync(corpus(`${folder.name}/${name}`)))) {
          if (!/\.(xml|rels|opf|ncx)$/i.test(part)) continue;
          expect(xmlDefect(decodeXml(data)), `${folder.name}/${name}: ${part}`).toBeNull();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
  });

  it('reads a UTF-16 part by its byte order mark', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a>é</a>', 'utf16le')]);
    expect(decodeXml(utf16)).toBe('<?xml version="1.0" encoding="UTF-16"?><a>é</a>');
    expect(xmlDefect(decodeXml(utf16))).toBeNull();
  });
});

describe('a part that is not well-formed XML, in every package format', () => {
  const cases: [file: string, fixture: Uint8Array, message: string][] = [
    ['SimpleMacro.pptm', truncatedPart('pptm/SimpleMacro.pptm', 'ppt/slides/_rels/slide1.xml.rels', 104), 'a PowerPoint presentation (.pptx) whose part ppt/slides/_rels/slide1.xml.rels is not well-formed XML (line 2)'],
    ['word_tables.docx', truncatedPart('docx/word_tables.docx', 'word/styles.xml', 2000), 'a Word document (.docx) whose part word/styles.xml is not well-formed XML (line 2)'],
    ['xlsx_01.xlsx', withPart('xlsx/xlsx_01.xlsx', 'xl/workbook.xml', '<workbook>\n<sheets><sheet name="a"></sheets>\n</workbook>'), 'an Excel workbook (.xlsx) whose part xl/workbook.xml is not well-formed XML (line 2)'],
    ['merged_cells.ods', truncatedPart('ods/merged_cells.ods', 'content.xml', 677), 'an OpenDocument spreadsheet (.ods) whose part content.xml is not well-formed XML (line 2)'],
    ['fake.odt', withPart('odt/fake.odt', 'meta.xml', '<office:document-meta>\n\n<office:meta></office:document-meta>'), 'an OpenDocument text document (.odt) whose part meta.xml is not well-formed XML (line 3)'],
    ['odf_presentation_01.odp', withPart('odp/odf_presentation_01.odp', 'styles.xml', '<a>\n<b>'), 'an OpenDocument presentation (.odp) whose part styles.xml is not well-formed XML (line 2)'],
    ['winter-sports.epub', truncatedPart('epub/winter-sports.epub', 'OEBPS/content.opf', 300), 'an EPUB book whose part OEBPS/content.opf is not well-formed XML'],
  ];
  it.each(cases)('%s: CORRUPT_DOCUMENT naming the part and the line', async (fileName, bytes, message) => {
    const failure = await parseDocument({ bytes, fileName, options }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringContaining(message) });
    expect((failure as Error).message).toMatch(/^the file is damaged: it is /);
  });

  it('a part that declares an external entity (XXE) is CORRUPT_DOCUMENT naming it; nothing is read', async () => {
    const files = unzipSync(corpus('docx/word_tables.docx'));
    const core = strFromU8(files['docProps/core.xml'] as Uint8Array);
    files['docProps/core.xml'] = strToU8(core.replace('?>', '?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>').replace('<dc:title>', '<dc:title>&xxe;'));
    await expect(parseDocument({ bytes: zipSync(files), fileName: 'xxe.docx', options })).rejects.toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged: it is a Word document (.docx) whose part docProps/core.xml declares an external entity (line 2), which no package needs and docmill never reads',
    });
  });

  it("an EPUB chapter is XHTML read as HTML: one that is not well-formed still converts", async () => {
    const book = makeEpub({ chapters: [{ id: 'c1', href: 'c1.xhtml', body: '' }] });
    const files = unzipSync(book);
    const chapter = Object.keys(files).find((name) => name.endsWith('c1.xhtml')) as string;
    files[chapter] = strToU8(xhtml('<p>First <b>bold</p><p>Second').replace('</body></html>', ''));
    const data = await parseDocument({ bytes: zipSync(files), fileName: 'sloppy.epub', options });
    expect(data.markdown).toContain('Second');
  });
});
