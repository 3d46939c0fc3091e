/**
 * The Word 97-2003 converter on the corpus (doc/legacy_sample.doc with its reference Markdown,
 * doc/fake-doc-emphasized-text.doc) and on documents built here (pieces of both encodings, fields, breaks,
 * footnotes, metadata, and every error with its reason).
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import { convertDoc } from '../../../src/engine/legacy/convert-doc.js';

import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, options, tablesOf } from '../html/helpers.js';
import { writeCfb } from './make-cfb.js';
import { makeDoc, summaryInformation } from './make-doc.js';

const convert = (file: string | Uint8Array, overrides = {}) => convertDoc(input(file, overrides, typeof file === 'string' ? undefined : 'built.doc'));

/** Lines of the expected Markdown that are list items. */
function listLines(markdown: string): string[] {
  return markdown.split('\n').filter((line) => /^(?:- |\d+\. )/.test(line));
}

describe('doc/legacy_sample.doc', () => {
  it('gives the reference headings, lists and table', async () => {
    const model = await convert('doc/legacy_sample.doc');
    const markdown = markdownOf(model);
    const expected = corpusText('doc/legacy_sample.expected.md');

    // Title, Heading 1 and Heading 2 styles, in order (the Subtitle before them is a heading here too).
    const headings = headingsOf(markdown);
    expect(headings).toEqual(['Summer activities', ...headingsOf(expected)]);
    expect(markdown).toContain('# Swimming in the lake');
    expect(markdown).toContain('# Let’s swim!');
    expect(markdown).toContain('## Let’s eat');
    expect(blocksOf(model).find((block) => block.type === 'title')?.markdown).toBe('# Swimming in the lake');

    // Bulleted and numbered lists, exactly as the reference writes them.
    expect(listLines(markdown)).toEqual(listLines(expected));

    const tables = tablesOf(model);
    expect(tables).toHaveLength(1);
    expect(tables[0]).toEqual([
      ['', 'Food', 'Calories per portion'],
      ['**Leaves**', 'Ash, Elm, Maple', '50'],
      ['**Berries**', 'Blueberry, Strawberry, Cranberry', '150'],
      ['**Grain**', 'Corn, Buckwheat, Barley', '200'],
    ]);

    // The caption's SEQ field keeps its result; the picture character is dropped; Quote style is a quote.
    expect(blocksOf(model).find((block) => block.type === 'caption')?.markdown).toBe('Figure 1: This is a cute duckling');
    expect(markdown).not.toMatch(/SEQ|ARABIC|MERGEFORMAT/);
    expect(markdown).toContain('> I like to eat leaves');
    // Reading order follows the document.
    expect(markdown.indexOf('Let’s eat')).toBeLessThan(markdown.indexOf('| Food'));
    expect(markdown.indexOf('| Food')).toBeLessThan(markdown.indexOf('1. Leaves'));
  });

  it('keeps the footer (a PAGE field) as page-number furniture, out of the main Markdown', async () => {
    const model = await convert('doc/legacy_sample.doc');
    const furniture = blocksOf(model).filter((block) => block.furniture);
    expect(furniture.map((block) => [block.type, block.markdown])).toEqual([['page_number', '2']]);
    expect(markdownOf(model)).not.toMatch(/PAGE/);
  });

  it('reads the author from the summary information and tags blocks as doc', async () => {
    const model = await convert('doc/legacy_sample.doc');
    expect(model.metadata).toMatchObject({ author: 'Christoph Auer', lastModifiedBy: 'Cesar Berrospi Ramis' });
    expect(blocksOf(model).every((block) => block.source === 'doc')).toBe(true);
    expect(model.warnings).toBeUndefined();
  });
});

describe('doc/fake-doc-emphasized-text.doc', () => {
  it('gives the table, emphasis and the hyperlink field as a link', async () => {
    const model = await convert('doc/fake-doc-emphasized-text.doc');
    expect(tablesOf(model)).toEqual([
      [
        ['Header Col 1', 'Header Col 2'],
        ['A **bold** *italic* ***bold-italic*** example', '[A Link example](http://github.com/)'],
      ],
    ]);
    const texts = blocksOf(model).filter((block) => block.type === 'text').map((block) => block.markdown);
    expect(texts).toEqual(['I am a **bold** *italic* ***bold-italic*** text.', 'I am a normal text.']);
    expect(markdownOf(model)).not.toContain('HYPERLINK');
  });
});

describe('Word and Excel 97-2003 files embedded in pptm/PPTWithAttachments.pptm', () => {
  const embedded = (name: string) => {
    const entries = unzipSync(corpusBytes('pptm/PPTWithAttachments.pptm'), { filter: (file) => file.name === `ppt/embeddings/${name}` });
    const bytes = entries[`ppt/embeddings/${name}`];
    if (bytes === undefined) throw new Error(`${name} is not in the package`);
    return bytes;
  };

  it('reads the Word document (Cyrillic, UTF-16 pieces) and its author', async () => {
    const model = await convert(embedded('_________Microsoft_Office_Word_97_-_20031.doc'));
    expect(blocksOf(model).map((block) => block.markdown)).toEqual(['Это встроенный word', 'This is an embedded word doc', 'ўзи ўзи']);
    expect(model.metadata).toMatchObject({ author: 'Yury Batrakov' });
  });

  it('says the Excel workbook is not a Word document', async () => {
    await expect(convert(embedded('_____Microsoft_Office_Excel_97-20032.xls'))).rejects.toMatchObject({
      apiCode: 'UNSUPPORTED_FILE',
      message: 'the file is an Excel 97-2003 workbook (.xls), not a Word 97-2003 document (.doc)',
    });
  });
});

describe('built documents', () => {
  it('reads 8-bit (Windows-1252) and UTF-16 pieces', async () => {
    const model = await convert(makeDoc({ main: '\u201cQuoted\u201d costs 5 \u20ac\rΑλφα and βήτα\r', splitAt: 19 }));
    expect(blocksOf(model).map((block) => block.markdown)).toEqual(['“Quoted” costs 5 €', 'Αλφα and βήτα']);
  });

  it('keeps field results, drops instructions, and makes breaks', async () => {
    const main =
      'Total: \u0013 =SUM(ABOVE) \u001442\u0015 items\r' +
      'Nested \u0013 IF 1 = 1 "\u0013 DATE \u00142024\u0015" \u0014in 2024\u0015 done\r' +
      'Line one\u000bLine two\r' +
      'Picture \u0001here\r' +
      '\u000c' +
      'After the break\r';
    const model = await convert(makeDoc({ main }));
    expect(model.pages).toHaveLength(2);
    expect(model.pages[0]?.blocks.map((block) => block.markdown)).toEqual([
      'Total: 42 items',
      'Nested in 2024 done',
      'Line one  \nLine two',
      'Picture here',
    ]);
    expect(model.pages[1]?.blocks.map((block) => block.markdown)).toEqual(['After the break']);
    expect(model.pages.map((page) => page.pageNumber)).toEqual([1, 2]);
  });

  it('escapes Markdown syntax typed as text', async () => {
    const model = await convert(makeDoc({ main: '# not a heading\r- not a list\r*stars* and a|pipe\r' }));
    expect(blocksOf(model).map((block) => block.markdown)).toEqual(['\\# not a heading', '\\- not a list', '\\*stars\\* and a\\|pipe']);
  });

  it('writes footnotes as references and notes', async () => {
    const model = await convert(makeDoc({ main: 'Water\u0002 is wet and fire\u0002 is hot.\r', footnotes: ['Mostly.', 'Very.'] }));
    const markdown = markdownOf(model);
    expect(markdown).toContain('Water[^1] is wet and fire[^2] is hot.');
    const notes = blocksOf(model).filter((block) => block.label === 'footnote').map((block) => block.markdown);
    expect(notes).toEqual(['[^1]: Mostly.', '[^2]: Very.']);
  });

  it('reads text boxes where they are anchored', async () => {
    const model = await convert(makeDoc({ main: 'Before\rAnchor here\u0008 and on\rAfter\r', textBoxes: ['Boxed **text**'] }));
    expect(blocksOf(model).map((block) => block.markdown)).toEqual(['Before', 'Anchor here and on', 'Boxed \\*\\*text\\*\\*', 'After']);
  });

  it('reads title and author from the summary information', async () => {
    const summary = summaryInformation({ 2: 'Quarterly report', 4: 'Zoë Writer' });
    const model = await convert(makeDoc({ main: 'Text\r', streams: [{ name: '\u0005SummaryInformation', data: summary }] }));
    expect(model.metadata).toMatchObject({ title: 'Quarterly report', author: 'Zoë Writer' });
  });

  it('gives an empty document one empty page and the no-text warning, as DOCX does', async () => {
    const model = await convert(makeDoc({ main: '\r\r' }));
    expect(model.pages).toHaveLength(1);
    expect(blocksOf(model)).toEqual([]);
    expect(model.warnings).toEqual(['the document has no text']);
  });
});

describe('errors', () => {
  const failure = async (bytes: Uint8Array) => {
    try {
      await convert(bytes);
    } catch (error) {
      return error as { apiCode: string; message: string };
    }
    throw new Error('the conversion did not fail');
  };

  it('refuses an encrypted document (FIB fEncrypted) as password-protected', async () => {
    const bytes = corpusBytes('doc/legacy_sample.doc').slice();
    // The FIB starts the WordDocument stream: find its signature (0xA5EC) at the start of a sector.
    let fib = -1;
    for (let at = 512; at < bytes.length; at += 512) {
      if (bytes[at] === 0xec && bytes[at + 1] === 0xa5) {
        fib = at;
        break;
      }
    }
    expect(fib).toBeGreaterThan(0);
    bytes[fib + 0x0b] = (bytes[fib + 0x0b] ?? 0) | 0x01;
    const error = await failure(bytes);
    expect(error.apiCode).toBe('ENCRYPTED_DOCUMENT');
    expect(error.message).toMatch(/password-protected/);
    expect((await failure(makeDoc({ main: 'Secret\r', encrypted: true }))).apiCode).toBe('ENCRYPTED_DOCUMENT');
  });

  it('refuses Word 6/95 files as unsupported', async () => {
    const error = await failure(makeDoc({ main: 'Old\r', nFib: 104 }));
    expect(error.apiCode).toBe('UNSUPPORTED_FILE');
    expect(error.message).toMatch(/Word 6\.0\/95/);
  });

  it('names a damaged piece table', async () => {
    const error = await failure(makeDoc({ main: 'Text\r', clx: Uint8Array.from([0x07, 0, 0, 0, 0]) }));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/piece table is damaged: no Pcdt/);
    // One piece of 5 characters whose text would start 8 MiB into a stream of a few kilobytes.
    const outside = Uint8Array.from([0x02, 16, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0]);
    const pastEnd = await failure(makeDoc({ main: 'Text\r', clx: outside }));
    expect(pastEnd.message).toMatch(/past the end of the WordDocument stream/);
    // One piece for CPs 2-6: nothing says what CPs 0-2 are.
    const gap = Uint8Array.from([0x02, 16, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0x04, 0, 0x40, 0, 0]);
    expect((await failure(makeDoc({ main: 'Text\r', clx: gap }))).message).toBe('the Word piece table is damaged: its pieces leave a gap');
  });

  it('says what the file is when it is not a Word 97-2003 binary', async () => {
    const ppt = await failure(corpusBytes('ppt/fake-power-point.ppt'));
    expect([ppt.apiCode, ppt.message]).toEqual(['UNSUPPORTED_FILE', 'the file is a PowerPoint 97-2003 presentation (.ppt), not a Word 97-2003 document (.doc)']);
    const docx = await failure(corpusBytes('doc/eng_spa_mult.doc'));
    expect([docx.apiCode, docx.message]).toEqual(['UNSUPPORTED_FILE', 'the file is a Word document (.docx), not a Word 97-2003 document (.doc)']);
    const encryptedPackage = await failure(corpusBytes('xlsx/password_protected.xlsx'));
    expect(encryptedPackage.apiCode).toBe('ENCRYPTED_DOCUMENT');
    expect(encryptedPackage.message).toMatch(/password-protected/);
    const otherOle = await failure(writeCfb([{ name: 'Contents', data: new Uint8Array(10) }]).bytes);
    expect([otherOle.apiCode, otherOle.message]).toEqual(['CORRUPT_DOCUMENT', 'the file is not a Word 97-2003 document (.doc): it looks like an OLE compound file of another kind (streams "Contents")']);
    const rtf = await failure(corpusBytes('rtf/fake-doc.rtf'));
    expect([rtf.apiCode, rtf.message]).toEqual(['UNSUPPORTED_FILE', 'the file is an RTF document, not a Word 97-2003 document (.doc)']);
    const text = await failure(new TextEncoder().encode('just some text, not a Word file'));
    expect([text.apiCode, text.message]).toEqual(['UNSUPPORTED_FILE', 'the file is a text file (CSV or plain text), not a Word 97-2003 document (.doc)']);
    const junk = await failure(Uint8Array.from({ length: 600 }, (_, index) => (index * 37 + 11) & 0xff));
    expect(junk.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(junk.message).toMatch(/^the file is not a Word 97-2003 document \(\.doc\): it looks like binary data/);
  });

  it('gives a file cut short before its text as a damaged container', async () => {
    const bytes = corpusBytes('doc/legacy_sample.doc');
    // The header and the FIB's sectors, and none of the text after them.
    const error = await failure(bytes.slice(0, 2560));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/^the file is damaged or truncated: it is an OLE compound file \(the legacy Office container\) cut short/);
  });
});

describe('a Word document cut short', () => {
  // Word writes the streams first and the allocation table and directory last: every cut loses those.
  const whole = corpusBytes('doc/legacy_sample.doc');
  const parse = (bytes: Uint8Array) => parseDocument({ bytes, fileName: 'cut.doc', options: options() });
  const CUT = 'The file was cut short (a Word 97-2003 document whose allocation table and directory, at its end, are missing): ';

  it('reads one cut after its piece table as if whole, from the streams found by their content', async () => {
    const intact = await parse(whole);
    const cut = await parse(whole.subarray(0, Math.floor(whole.length * 0.95)));
    expect(cut.markdown).toBe(intact.markdown);
    expect(cut.markdown).toContain('| **Leaves** | Ash, Elm, Maple | 50 |');
    expect(cut.warning).toBe(`${CUT}its text was read from the streams before the cut, without its title, author or pictures.`);
    // The property sets were in the part lost.
    expect(cut.metadata).not.toHaveProperty('author');
    const bold = corpusBytes('doc/fake-doc-emphasized-text.doc');
    expect((await parse(bold.subarray(0, Math.floor(bold.length * 0.7)))).markdown).toContain('I am a **bold** *italic* ***bold-italic*** text.');
  });

  it('reads one whose tables were lost as plain paragraphs, and one cut through its text up to the cut', async () => {
    const plain = await parse(whole.subarray(0, Math.floor(whole.length * 0.3)));
    expect(plain.warning).toBe(`${CUT}its text was read as plain paragraphs (its styles, tables, notes and headers were in the part lost), without its title, author or pictures.`);
    const paragraphs = plain.markdown?.split('\n\n') ?? [];
    expect(paragraphs.slice(0, 4)).toEqual(['Summer activities', 'Swimming in the lake', 'Duck', 'Figure 1: This is a cute duckling']);
    expect(paragraphs).toContain('Corn, Buckwheat, Barley');
    expect(paragraphs.at(-1)).toBe('Grain');
    // Word's marks (cells, fields, breaks) are read as the converter reads them: none is left as a control character.
    expect([...(plain.markdown ?? '')].filter((char) => char < ' ' && char !== '\n')).toEqual([]);

    // 300 bytes of its 779 of text (one byte a character) are left.
    const textCut = await parse(whole.subarray(0, 512 + 2048 + 300));
    expect(textCut.warning).toBe(`${CUT}its text up to the cut was read as plain paragraphs; the rest of it, its styles, tables, notes, headers, title, author and pictures are lost.`);
    expect(textCut.markdown).toMatch(/^Summer activities\n\nSwimming in the lake\n\n/);
    expect(textCut.markdown?.length).toBeLessThan(320);
  });

  it('does not read a fast-saved document whose tables were lost: its text is in pieces only they place', async () => {
    const fastSaved = whole.slice(0, Math.floor(whole.length * 0.3));
    // FibBase flags at 0x0A of the WordDocument stream (the first sector): fComplex.
    fastSaved[512 + 0x0a] = (fastSaved[512 + 0x0a] ?? 0) | 0x04;
    const error = await parse(fastSaved).then(
      () => undefined,
      (failure: unknown) => failure as { apiCode: string; message: string },
    );
    expect(error?.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error?.message).toMatch(/cut short: FAT sector 228 lies beyond the end of the file/);
  });
});

describe('through the engine', () => {
  it('parses a .doc with parseDocument', async () => {
    const data = await parseDocument({ bytes: corpusBytes('doc/legacy_sample.doc'), fileName: 'legacy_sample.doc', options: options() });
    expect(data.markdown).toContain('## Let’s eat');
    expect(data.markdown).toContain('| **Leaves** | Ash, Elm, Maple | 50 |');
    expect(data.markdown).not.toContain('\n2\n');
    expect(data.metadata).toMatchObject({ author: 'Christoph Auer', contentType: 'application/msword' });
  });
});

