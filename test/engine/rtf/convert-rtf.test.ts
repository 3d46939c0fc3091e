/**
 * The RTF converter on the corpus (rtf/) and on documents written here for each feature: Unicode escapes and their
 * fallbacks, code pages by font, tables, lists, headings, fields, notes, furniture, hidden text, pictures, damaged
 * and hostile files, and the route through the engine.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import { EngineError } from '../../../src/engine/engine-error.js';
import { NO_TEXT_WARNING as HTML_NO_TEXT_WARNING } from '../../../src/engine/html/convert-html.js';
import type { DocumentModel } from '../../../src/engine/model.js';
import { convertRtf, NO_TEXT_WARNING } from '../../../src/engine/rtf/convert-rtf.js';
import { blocksOf, corpusBytes, headingsOf, input, markdownOf, options, tablesOf } from '../html/helpers.js';

/** RTF source text → bytes (the source is ASCII: any other byte is written as `\'hh` or `\u` in the tests). */
function bytesOf(source: string): Uint8Array {
  return new Uint8Array([...source].map((character) => character.charCodeAt(0) & 0xff));
}

interface DocumentParts {
  fonts?: string;
  styles?: string;
  info?: string;
  header?: string;
  codePage?: number;
}

/** A document around a body, with a font table (f0 Times, plus `fonts`) and optional style sheet and info. */
function rtf(body: string, parts: DocumentParts = {}): string {
  return (
    `{\\rtf1\\ansi\\ansicpg${parts.codePage ?? 1252}\\deff0` +
    `{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}${parts.fonts ?? ''}}` +
    '{\\colortbl;\\red0\\green0\\blue0;}' +
    (parts.styles !== undefined ? `{\\stylesheet{\\s0 Normal;}${parts.styles}}` : '') +
    (parts.info !== undefined ? `{\\info${parts.info}}` : '') +
    (parts.header ?? '') +
    `\n${body}}`
  );
}

function convert(source: string | Uint8Array, fileName = 'test.rtf'): Promise<DocumentModel> {
  return convertRtf(input(typeof source === 'string' ? bytesOf(source) : source, {}, fileName));
}

async function markdown(body: string, parts?: DocumentParts): Promise<string> {
  return markdownOf(await convert(rtf(body, parts)));
}

async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('corpus', () => {
  it('rtf/fake-doc.rtf: heading, paragraphs, bold text and a table', async () => {
    const model = await convertRtf(input('rtf/fake-doc.rtf'));
    const blocks = blocksOf(model);
    expect(blocks.map((block) => block.type)).toEqual(['title', 'text', 'text', 'table']);
    expect(markdownOf(model)).toBe(
      [
        '# My First Heading',
        'My first paragraph.',
        '**Table Example:**',
        '| Column 1 | Column 2 |\n| --- | --- |\n| Row 1, Cell 1 | Row 1, Cell 2 |\n| Row 2, Cell 1 | Row 2, Cell 2 |',
      ].join('\n\n'),
    );
    expect(blocks.every((block) => block.source === 'rtf')).toBe(true);
    expect(model.pages).toHaveLength(1);
    expect(model.warnings).toBeUndefined();
  });

  it('rtf/eng_spa_mult.rtf (written by Aspose for Word): Spanish in cp1252, nothing from the tables leaks', async () => {
    const model = await convertRtf(input('rtf/eng_spa_mult.rtf'));
    const text = markdownOf(model);
    expect(blocksOf(model)).toHaveLength(5);
    expect(text).toContain('dotados como están de razón y conciencia');
    expect(text.startsWith('All human beings are born free and equal in dignity and rights.')).toBe(true);
    // Font table, style sheet, generator and list-style names are destinations, not text.
    for (const leak of ['Times New Roman', 'heading 1', 'Normal Table', 'Aspose', 'Default Paragraph Font', ';']) {
      expect(text).not.toContain(leak);
    }
    expect(model.warnings).toBeUndefined();
  });
});

/** Real files from other applications (test/fixtures/rtf, see its SOURCES.md). */
function fixture(name: string): Promise<DocumentModel> {
  return convertRtf(input(new Uint8Array(readFileSync(new URL(`../../fixtures/rtf/${name}`, import.meta.url))), {}, name));
}

describe('files from other writers (test/fixtures/rtf)', () => {
  it('testTextConversion.rtf (Word): headings, paragraphs and the table match the reference text', async () => {
    const model = await fixture('testTextConversion.rtf');
    const reference = readFileSync(new URL('../../fixtures/rtf/testTextConversion.txt', import.meta.url), 'utf8');
    const markdown = markdownOf(model);
    expect(headingsOf(markdown)).toEqual(['First Heading', 'Second Heading', 'Third Heading']);
    for (const line of reference.split(/\r?\n/).filter((text) => text.length > 60)) expect(markdown).toContain(line);
    const rows = reference
      .split(/\r?\n/)
      .filter((line) => line.includes('\t'))
      .map((line) => line.split('\t').filter((cell) => cell !== ''));
    expect(tablesOf(model)).toEqual([rows]);
    expect(model.metadata).toMatchObject({ author: 'Jon Iles', created: '2013-07-14T09:50:00', modified: '2013-07-14T09:57:00' });
    expect(model.warnings).toBeUndefined();
  });

  it('testMultiByteHex.rtf (WordPad, \\ansicpg932): Shift-JIS pairs decoded', async () => {
    expect(markdownOf(await fixture('testMultiByteHex.rtf'))).toBe('お元気ですか？');
  });

  it('test950Encoding.rtf (TextEdit): © from a charset-0 font in a cp950 document, title and author', async () => {
    const model = await fixture('test950Encoding.rtf');
    expect(markdownOf(model)).toBe('Test Text\n\nCopyright © 2004-2013 Test Project');
    expect(model.metadata).toEqual({ title: 'Title', author: 'Test Author' });
  });

  it('test10001Encoding.rtf (TextEdit): Mac Japanese text in a list item', async () => {
    const model = await fixture('test10001Encoding.rtf');
    expect(blocksOf(model).map((block) => [block.label, block.markdown])).toEqual([['list', '- **お読みください**']]);
  });

  it('testUnicode.rtf (WordPad): \\u escapes in many scripts and \\\'hh by font charset', async () => {
    expect(blocksOf(await fixture('testUnicode.rtf')).map((block) => block.markdown)).toEqual([
      'Արամ',
      'Johann Strauß',
      'België\tRené Magritte',
      'বাংলা',
      '་ཡུལ།',
      'ប្រទេស\u200b\u200b\u200bកម្ពុជា',
      'ᓄᓇᕗᒻᒥᐅᑦ',
      '中国',
      'Česká republika',
    ]);
  });

  it('testGitHubIssue6.rtf (iText): header as furniture, line breaks, \\u with fallback', async () => {
    const model = await fixture('testGitHubIssue6.rtf');
    expect(blocksOf(model).filter((block) => block.furniture).map((block) => block.type)).toEqual(['page_header']);
    expect(markdownOf(model)).toBe(
      [
        'INNEN. KÜCHE - TAG',
        'Ein Absatz mit Line-Separator:  \nDer geht hier auf einer neuen Zeile weiter.',
        'INNEN. KÜCHE - TAG',
        'Hier ist die zweite Szene.',
      ].join('\n\n'),
    );
  });
});

describe('Unicode escapes and their fallbacks', () => {
  it('skips one fallback character after \\u with \\uc1 (the default), including a control word or \\\'hh', async () => {
    expect(await markdown('caf\\u233?s na\\u239\\\'efve \\u8212\\emdash  end\\par')).toBe('cafés naïve — end');
  });

  it('skips nothing with \\uc0 and two characters with \\uc2, then restores the count when the group ends', async () => {
    expect(await markdown('{\\uc0 \\u1055\\u1088\\u1080\\u1074\\u1077\\u1090}\\par')).toBe('Привет');
    expect(await markdown('{\\uc2\\u26085\\\'93\\\'fa\\u26412\\\'96\\\'7b}\\u233?\\par')).toBe('日本é');
  });

  it('reads negative parameters as code units + 65536, joining surrogate pairs', async () => {
    expect(await markdown('smile \\u-10179?\\u-8704? and \\u-4064?\\par')).toBe('smile 😀 and \uf020');
  });
});

describe('code pages', () => {
  it("decodes \\'hh in the font's code page (\\fcharset204 → cp1251) and the document's (\\ansicpg)", async () => {
    const fonts = '{\\f1\\fswiss\\fcharset204 Arial Cyr;}';
    expect(await markdown("\\f1 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2 \\f0 caf\\'e9\\par", { fonts })).toBe('Привет café');
    // A font of the default character set (1), or none, reads the document's code page.
    const defaultCharset = '{\\f1\\fswiss\\fcharset1 Arial;}';
    expect(await markdown("\\f1 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2\\par", { codePage: 1251, fonts: defaultCharset })).toBe('Привет');
    expect(await markdown("\\f9 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2\\par", { codePage: 1251 })).toBe('Привет');
    const unknown = await convert(rtf("caf\\'e9\\par", { codePage: 99999 }));
    expect(markdownOf(unknown)).toBe('café');
    expect(unknown.warnings).toEqual(["the document's code page 99999 is not known; its 8-bit text was read as Windows-1252"]);
  });

  it('reads charset 0 as Windows-1252 whatever \\ansicpg says (macOS TextEdit writes \\ansicpg950 with Latin fonts)', async () => {
    expect(await markdown("Copyright \\'a9 2024\\par", { codePage: 950 })).toBe('Copyright © 2024');
  });

  it('reads Mac character sets (\\mac, \\fcharset77 Roman, 89 Cyrillic)', async () => {
    const source =
      "{\\rtf1\\mac\\deff0{\\fonttbl{\\f0\\fcharset77 Times;}{\\f1\\fcharset89 Geneva CY;}}" +
      "caf\\'8e \\f1 \\'8a\\'ee\\'ec\\'ec\\'e0\\'ed\\'e4\\'e0\\par}";
    expect(markdownOf(await convert(source))).toBe('café Комманда');
  });

  it('joins double-byte Shift-JIS pairs, also when the trail byte is written as ASCII or as \\\\', async () => {
    const fonts = '{\\f2\\fnil\\fcharset128 MS Mincho;}';
    // 日本語 = 93FA 967B 8CEA; ア = 8341 (trail byte "A"); ソ = 835C (trail byte "\").
    expect(await markdown("{\\f2 \\'93\\'fa\\'96\\'7b\\'8c\\'ea \\'83A\\'83\\\\}\\par", { fonts })).toBe('日本語 アソ');
  });

  it('uses the double-byte font associated with \\dbch when the run font is Latin', async () => {
    const fonts = '{\\f3\\fnil\\fcharset134 SimSun;}';
    // 中文 in GBK: D6D0 CEC4.
    expect(await markdown("{\\loch\\f0\\hich\\af0\\dbch\\af3 \\'d6\\'d0\\'ce\\'c4}\\par", { fonts })).toBe('中文');
  });
});

describe('encodings of the file itself', () => {
  it('reads RTF saved as UTF-16 (with a byte order mark)', async () => {
    const source = rtf('Gr\\u252?\\u223?e {\\b bold}\\par');
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(source, 'utf16le'))]);
    expect(markdownOf(await convert(utf16))).toBe('Grüße **bold**');
  });
});

describe('paragraphs and characters', () => {
  it('applies bold and italic per run, scoped by groups, closed in every paragraph', async () => {
    expect(await markdown('{\\b bold {\\i both} bold} plain {\\i it}\\par')).toBe('**bold** ***both*** **bold** plain *it*');
    const model = await convert(rtf('\\b First\\par Second\\b0\\par Third\\par'));
    expect(blocksOf(model).map((block) => block.markdown)).toEqual(['**First**', '**Second**', 'Third']);
  });

  it('keeps line breaks, tabs, symbol words and non-breaking characters', async () => {
    expect(await markdown('one\\line two\\tab three\\par')).toBe('one  \ntwo\tthree');
    expect(await markdown('a\\emdash b\\endash c\\~d\\_e \\lquote q\\rquote  \\ldblquote dq\\rdblquote\\bullet x\\-y\\par')).toBe(
      'a—b–c\u00a0d\u2011e ‘q’ “dq”•xy',
    );
  });

  it('escapes text that would read as Markdown', async () => {
    expect(await markdown('# not a heading\\par 1. not a list *nor emphasis* [x]\\par')).toBe(
      '\\# not a heading\n\n1\\. not a list \\*nor emphasis\\* \\[x\\]',
    );
  });

  it('writes raised and lowered digits as Unicode superscripts and subscripts; other raised text stays as written', async () => {
    expect(await markdown('about 1\\u215?10{\\super 7} K; H{\\sub 2}O; CO\\dn4 2\\dn0  gas; x\\up6 2\\up0 ; the 1{\\super st} row\\par')).toBe(
      'about 1×10⁷ K; H₂O; CO₂ gas; x²; the 1st row',
    );
    expect(await markdown('Na{\\super +} and m{\\super 3}\\nosupersub 3\\par')).toBe('Na+ and m³3');
  });

  it('leaves hidden (\\v) and deleted text out', async () => {
    expect(await markdown('shown {\\v secret} more\\v  hidden too\\v0  end {\\deleted gone}\\par')).toBe('shown more end');
  });
});

describe('destinations', () => {
  it('skips pictures, objects, shape pictures and \\bin data, whatever bytes they hold', async () => {
    const body =
      'before {\\pict\\pngblip\\picw10\\pich10 89504e470d0a1a0a}' +
      '{\\*\\shppict{\\pict\\wmetafile8 0100090000}}{\\nonshppict{\\pict\\wmetafile8 0100}}' +
      '{\\object\\objemb{\\*\\objclass Excel.Sheet.8}{\\*\\objdata 01050000}{\\result {\\pict 00}}}' +
      '{\\pict\\bin6 }{a\\b}} after\\par';
    expect(await markdown(body)).toBe('before after');
  });

  it('skips unknown \\* destinations with their nested groups, and reads \\ud in \\upr', async () => {
    expect(await markdown('a{\\*\\unknownthing text {nested} more}b {\\upr{ansi text}{\\*\\ud{unicode text}}}\\par')).toBe(
      'ab unicode text',
    );
  });

  it('reads the text box of a shape once (\\shptxt), not its properties or its fallback drawing', async () => {
    const body =
      'Before {\\shp{\\*\\shpinst\\shpleft0\\shpright2000{\\sp{\\sn fillColor}{\\sv 255}}' +
      '{\\shptxt \\pard Box text\\par}}{\\shprslt{\\*\\do\\dobxcolumn{\\dptxbxtext Box text\\par}}}}after\\par';
    expect(await markdown(body)).toBe('Before Box text\n\nafter');
  });

  it('reads \\info into metadata (title, author, subject, keywords, dates)', async () => {
    const info =
      '{\\title Quarterly \\u233?tude}{\\author Ana Ruiz}{\\subject Sales}{\\keywords q1 sales}{\\doccomm A comment}' +
      '{\\creatim\\yr2024\\mo3\\dy5\\hr9\\min30}{\\nofpages2}';
    const model = await convert(rtf('Body\\par', { info }));
    expect(model.metadata).toEqual({
      title: 'Quarterly étude',
      author: 'Ana Ruiz',
      subject: 'Sales',
      keywords: 'q1 sales',
      description: 'A comment',
      created: '2024-03-05T09:30:00',
    });
    expect(markdownOf(model)).toBe('Body');
  });

  it('keeps field results, not instructions; a HYPERLINK result becomes a Markdown link', async () => {
    const body =
      'See {\\field{\\*\\fldinst {HYPERLINK "https://example.com/a b" \\\\o "tip"}}{\\fldrslt {\\ul the site}}} and ' +
      'page {\\field{\\*\\fldinst PAGE \\\\* MERGEFORMAT}{\\fldrslt 3}} and {\\field{\\*\\fldinst HYPERLINK \\\\l "sec"}{\\fldrslt a bookmark}}' +
      ' and {\\field\\flddirty{\\*\\fldinst {HYPERLINK "c:\\\\\\\\temp\\\\\\\\doc1.doc"}}{\\fldrslt \\ul a file}}.\\par';
    expect(await markdown(body)).toBe('See [the site](https://example.com/a%20b) and page 3 and a bookmark and a file.');
  });

  it('writes footnotes as GFM footnotes: a reference where anchored, the notes at the end', async () => {
    const heading = await convert(rtf('\\outlinelevel0 Results{\\super\\chftn}{\\footnote\\pard From 2024.}\\par'));
    expect(markdownOf(heading)).toBe('# Results[^1]\n\n[^1]: From 2024.');
    // An empty note (as pasted fragments carry, starred) leaves no dangling reference.
    expect(await markdown('aaa{\\super \\chftn{\\*\\footnote \\chftn\\pard\\plain \\li339\\fi-339}}\\par')).toBe('aaa');
    const body =
      'Claim{\\super\\chftn}{\\footnote\\pard\\plain{\\super\\chftn} Source: {\\i a book}.}, and more.\\par ' +
      'Second{\\super\\chftn}{\\footnote\\pard{\\super\\chftn} Other note.\\par}\\par';
    const model = await convert(rtf(body));
    expect(blocksOf(model).map((block) => [block.label, block.markdown])).toEqual([
      [null, 'Claim[^1], and more.'],
      [null, 'Second[^2]'],
      ['footnote', '[^1]: Source: *a book*.'],
      ['footnote', '[^2]: Other note.'],
    ]);
  });

  it('reads page headers and footers as furniture, a page-number footer as page_number', async () => {
    const header = '{\\header\\pard\\plain Annual report\\par}{\\footer\\pard\\plain Page {\\field{\\*\\fldinst PAGE}{\\fldrslt 1}}\\par}';
    const model = await convert(rtf('Body text\\par', { header }));
    expect(blocksOf(model).map((block) => [block.type, block.markdown, block.furniture ?? false])).toEqual([
      ['page_header', 'Annual report', true],
      ['text', 'Body text', false],
      ['page_number', 'Page 1', true],
    ]);
    expect(markdownOf(model)).toBe('Body text');
  });
});

describe('headings', () => {
  it('come from the style sheet ("heading N", Title) and from \\outlinelevel; the first level 1 is the title', async () => {
    const styles = '{\\s1\\sbasedon0\\snext0 heading 1;}{\\s2 heading 2;}{\\s15 Title;}{\\*\\cs10 Default Paragraph Font;}';
    const body =
      '\\pard\\plain\\s15 Report\\par\\pard\\plain\\s1 Introduction\\par\\pard\\plain Text.\\par' +
      '\\pard\\plain\\s2 {\\b Scope}\\par\\pard\\plain\\outlinelevel2 Details #\\par\\pard\\plain\\s0 Plain.\\par';
    const model = await convert(rtf(body, { styles }));
    expect(markdownOf(model)).toBe(['# Report', '# Introduction', 'Text.', '## Scope', '### Details \\#', 'Plain.'].join('\n\n'));
    expect(blocksOf(model).map((block) => [block.type, block.label])).toEqual([
      ['title', 'heading-1'],
      ['section_header', 'heading-1'],
      ['text', null],
      ['section_header', 'heading-2'],
      ['section_header', 'heading-3'],
      ['text', null],
    ]);
    expect(headingsOf(markdownOf(model))).toEqual(['Report', 'Introduction', 'Scope', 'Details \\#']);
  });
});

describe('lists', () => {
  it('reads Word lists (\\ls, \\ilvl, \\listtext) as one list block with nested levels', async () => {
    const fonts = '{\\f3\\fbidi\\fcharset2 Symbol;}';
    const item = (level: number, marker: string, text: string) =>
      `\\pard\\plain\\fi-360\\li${720 * (level + 1)}\\ls1\\ilvl${level}{\\listtext\\pard\\plain\\f3 ${marker}\\tab}${text}\\par`;
    const body =
      'Intro\\par' +
      item(0, "\\'b7", 'First') +
      item(1, "\\'b7", 'Nested {\\b bold}') +
      item(0, "\\'b7", 'Second') +
      '\\pard\\plain After\\par' +
      item(0, '1.', 'One') +
      item(0, '2.', 'Two') +
      item(1, 'a.', 'Lettered');
    const model = await convert(rtf(body, { fonts }));
    expect(blocksOf(model).map((block) => [block.label, block.markdown])).toEqual([
      [null, 'Intro'],
      ['list', '- First\n    - Nested **bold**\n- Second'],
      [null, 'After'],
      ['list', '1. One\n2. Two\n    - a. Lettered'],
    ]);
  });

  it('reads old-style \\pntext lists (WordPad) with the marker text as the bullet', async () => {
    const body =
      "{\\pntext\\f0\\'b7\\tab}{\\*\\pn\\pnlvlblt\\pnf0\\pnindent0{\\pntxtb\\'b7}}\\fi-720\\li720 apples\\par" +
      "{\\pntext\\f0\\'b7\\tab}pears\\par\\pard " +
      '{\\pntext\\f0 3.\\tab}{\\*\\pn\\pnlvl1\\pndec{\\pntxta .}}plums\\par\\pard done\\par';
    expect(await markdown(body)).toBe('- apples\n- pears\n3. plums\n\ndone');
  });
});

describe('tables', () => {
  it('become GFM tables: cell paragraphs as <br>, pipes escaped, the table ends at the next paragraph', async () => {
    const row = (cells: string[]) =>
      `\\trowd\\trgaph108\\cellx3000\\cellx6000\\cellx9000${cells.map((cell) => `\\pard\\intbl ${cell}\\cell`).join('')}\\row`;
    const body =
      'Before\\par' +
      row(['Name', 'Notes', 'Price']) +
      row(['{\\b Apple}', 'red\\par green', 'a|b']) +
      row(['Pear', '', '3']) +
      '\\pard After\\par';
    const model = await convert(rtf(body));
    expect(tablesOf(model)).toEqual([
      [
        ['Name', 'Notes', 'Price'],
        ['Apple', 'red<br>green', 'a\\|b'],
        ['Pear', '', '3'],
      ],
    ]);
    expect(blocksOf(model).map((block) => block.type)).toEqual(['text', 'table', 'text']);
  });

  it('sets cells on the columns their edges say: a wide cell spans its columns, merged cells repeat the merged text', async () => {
    const cells = (texts: string[]) => texts.map((text) => `\\pard\\intbl ${text}\\cell`).join('');
    const body =
      // A header cell as wide as two columns (LibreOffice's merge), then Word's \clmgf / \clmrg and \clvmgf / \clvmrg.
      `\\trowd\\cellx6000\\cellx9000${cells(['Region', 'Total'])}\\row` +
      `\\trowd\\clvmgf\\cellx3000\\cellx6000\\cellx9000${cells(['North', 'Oslo', '12'])}\\row` +
      `\\trowd\\clvmrg\\cellx3000\\cellx6000\\cellx9000${cells(['', 'Bergen', '7'])}\\row` +
      `\\trowd\\cellx3000\\clmgf\\cellx6000\\clmrg\\cellx9010${cells(['South', 'no data', ''])}\\row` +
      '\\pard After\\par';
    expect(tablesOf(await convert(rtf(body)))).toEqual([
      [
        ['Region', 'Region', 'Total'],
        ['North', 'Oslo', '12'],
        ['North', 'Bergen', '7'],
        ['South', 'no data', 'no data'],
      ],
    ]);
  });

  it('flattens nested tables into their outer cell and ignores the \\nonesttables copy', async () => {
    const body =
      '\\trowd\\cellx4000\\cellx8000\\pard\\intbl Outer A\\cell' +
      '\\pard\\intbl\\itap2 In 1\\nestcell In 2\\nestcell{\\*\\nesttableprops\\trowd\\cellx2000\\cellx4000\\nestrow}' +
      '{\\nonesttables\\par }\\pard\\intbl\\itap1 tail\\cell\\row' +
      '\\trowd\\cellx4000\\cellx8000\\pard\\intbl x\\cell y\\cell\\row\\pard end\\par';
    const model = await convert(rtf(body));
    expect(tablesOf(model)).toEqual([
      [
        ['Outer A', 'In 1<br>In 2<br>tail'],
        ['x', 'y'],
      ],
    ]);
    expect(markdownOf(model).endsWith('\n\nend')).toBe(true);
  });
});

describe('damaged and hostile files', () => {
  it('keeps the text of a truncated document, with a warning', async () => {
    const whole = rtf('{\\pard First paragraph.\\par}{\\pard Second {\\b paragraph} cut here and the rest is lost\\par}');
    const model = await convert(whole.slice(0, whole.indexOf(' and the rest')));
    expect(markdownOf(model)).toBe('First paragraph.\n\nSecond **paragraph** cut here');
    expect(model.warnings?.join(' ')).toMatch(/ends before 2 of its groups were closed.*truncated/);
  });

  it('keeps reading after an extra closing brace, with a warning', async () => {
    const model = await convert('{\\rtf1\\ansi one\\par}} two\\par}');
    expect(markdownOf(model)).toBe('one\n\ntwo');
    expect(model.warnings?.join(' ')).toMatch(/unbalanced braces/);
  });

  it('reads 100,000 nested groups flat, without overflowing the stack', async () => {
    const depth = 100_000;
    const model = await convert(`{\\rtf1\\ansi ${'{\\b '.repeat(depth)}deep${'}'.repeat(depth)} shallow\\par}`);
    expect(markdownOf(model)).toBe('**deep** shallow');
    expect(model.warnings).toEqual([expect.stringMatching(/nested deeper than 256 levels/)]);
  });

  it('survives 100,000 unclosed groups and a skipped destination that never ends', async () => {
    const model = await convert(`{\\rtf1 text${'{'.repeat(100_000)}{\\pict ${'{'.repeat(1000)}`);
    expect(markdownOf(model)).toBe('text');
    expect(model.warnings?.join(' ')).toMatch(/ends before \d+ of its groups/);
  });

  it('stays linear on shapes that make naive parsers quadratic', async () => {
    const spaces = ' '.repeat(1_000_000);
    const body =
      `{\\b a${spaces}b}\\par {\\b\\tab${'\\tab '.repeat(100_000)}x}\\par\\outlinelevel0 C ${'#'.repeat(200_000)}\\par\\pard ` +
      `{\\field{\\*\\fldinst HYPERLINK "https://example.com/${'x'.repeat(8000)}"}${'{\\fldrslt y}'.repeat(20_000)}}\\par ` +
      '{\\stylesheet{\\s1 heading 1;}}{\\s1 H\\par}'.repeat(20_000);
    const started = performance.now();
    const model = await convert(rtf(body));
    expect(performance.now() - started).toBeLessThan(10_000);
    const blocks = blocksOf(model);
    expect(blocks[0]?.markdown).toBe('**a b**');
    expect(blocks[1]?.markdown).toBe('**x**');
    expect(blocks[2]?.markdown).toBe(`# C \\${'#'.repeat(200_000)}`);
    expect(blocks[3]?.markdown).toMatch(/^\[y{20000}\]\(https:\/\/example\.com\/x{8000}\)$/);
    expect(blocks.filter((block) => block.markdown === '# H')).toHaveLength(20_000);
  });

  it('refuses a file that is not RTF, saying what it looks like', async () => {
    const pdf = await engineError(convert(new TextEncoder().encode('%PDF-1.7\n1 0 obj\n')));
    expect(pdf.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(pdf.message).toMatch(/not an RTF document.*a PDF document/);
    const text = await engineError(convert('Dear customer,\nthis is a letter.\n'));
    expect(text.message).toMatch(/does not start with "\{\\rtf".*a text file/);
  });

  it('gives a document without text no blocks and the same warning as Word documents', async () => {
    const model = await convert(rtf('{\\pict\\pngblip 0000}\\par\\par', { info: '{\\title Empty}' }));
    expect(blocksOf(model)).toEqual([]);
    expect(NO_TEXT_WARNING).toBe(HTML_NO_TEXT_WARNING);
    expect(model.warnings).toEqual([NO_TEXT_WARNING]);
    expect(model.metadata).toEqual({ title: 'Empty' });
  });
});

describe('through the engine', () => {
  it('routes .rtf to the RTF converter: Markdown, blocks and content type', async () => {
    const data = await parseDocument({ bytes: corpusBytes('rtf/fake-doc.rtf'), fileName: 'fake-doc.rtf', options: options() });
    expect(data.markdown).toContain('# My First Heading\n\nMy first paragraph.');
    expect(data.markdown).toContain('| Row 2, Cell 1 | Row 2, Cell 2 |');
    expect(data.metadata).toMatchObject({ contentType: 'application/rtf' });
  });

  it('converts RTF under another name (.doc) as RTF, with a warning', async () => {
    const data = await parseDocument({ bytes: bytesOf(rtf('Letter {\\i text}\\par')), fileName: 'letter.doc', options: options() });
    expect(data.markdown).toBe('Letter *text*');
    expect(data.warning).toMatch(/letter\.doc is an RTF document; converted as RTF/);
    expect(data.metadata).toMatchObject({ contentType: 'application/rtf' });
  });
});
