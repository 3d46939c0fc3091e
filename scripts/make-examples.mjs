#!/usr/bin/env node
// Writes the sample documents in examples/ (run via `npm run examples`).
//
// Everything is built by hand from node: built-ins so the samples can be regenerated without
// any document library, and so every byte in them is explained by this file. Output must be
// byte-identical from run to run: no clocks, fixed ZIP timestamps, fixed PDF dates.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

// ---------------------------------------------------------------------------------------------
// Shared helpers

function xmlEscape(text) {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// Office packages link every part through relationship files; this builds one.
function relationships(rels) {
  const items = rels.map(
    ([id, type, target]) =>
      `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`,
  );
  return (
    XML_DECL +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    items.join('') +
    '</Relationships>'
  );
}

function contentTypes(overrides) {
  const items = Object.entries(overrides).map(
    ([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`,
  );
  return (
    XML_DECL +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    items.join('') +
    '</Types>'
  );
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

// ---------------------------------------------------------------------------------------------
// ZIP writer (shared by the .docx and .xlsx)

// zlib.crc32 arrived in Node 20.15 / 22.2; the table version keeps the script usable when it is
// run directly with an older node than package.json's engines field asks for.
const crc32 = zlib.crc32 ?? tableCrc32;

function tableCrc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// 2026-01-01 00:00 in MS-DOS format; a fixed stamp is what makes the archives reproducible.
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

/** @param {Array<[string, string | Buffer]>} entries name/content pairs, written in order */
function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const packed = zlib.deflateRawSync(data, { level: 9 });
    const crc = crc32(data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0, 6); // flags: sizes are known up front, so no data descriptor
    local.writeUInt16LE(8, 8); // method: deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28); // extra field length

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by: 2.0, MS-DOS attributes
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    // extra length, comment length, disk number, internal and external attributes stay zero
    central.writeUInt32LE(offset, 42);

    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8); // entries on this disk
  end.writeUInt16LE(entries.length, 10); // entries in total
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------------------------------------
// report.pdf

const PAGE_WIDTH = 612; // US Letter, in points
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const BODY_SIZE = 11;
const BODY_LEADING = 15;
// Wrapping by character count avoids shipping a font metrics table; English prose in 11 pt
// Helvetica averages about 5 pt per character, so 88 characters fit the 468 pt text column.
const WRAP_CHARS = 88;

// Standard-14 fonts with WinAnsiEncoding; only ASCII and the bullet are needed by the text below,
// and failing loudly beats silently writing a byte the font would show as something else.
function pdfString(text) {
  let out = '';
  for (const ch of text) {
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (ch === '•') out += '\x95';
    else if (ch >= ' ' && ch <= '~') out += ch;
    else throw new Error(`no WinAnsi byte chosen for ${JSON.stringify(ch)}`);
  }
  return `(${out})`;
}

function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// Lays text out top to bottom; each method moves the cursor down past what it drew.
function createPage(pageNumber) {
  const ops = [];
  let y = PAGE_HEIGHT - MARGIN;
  const show = (font, size, x, text) => ops.push(`BT /${font} ${size} Tf ${x} ${y} Td ${pdfString(text)} Tj ET`);

  return {
    title(text) {
      show('F2', 24, MARGIN, text);
      y -= 22;
    },
    subtitle(text) {
      show('F1', BODY_SIZE, MARGIN, text);
      y -= 34;
    },
    heading(text) {
      show('F2', 14, MARGIN, text);
      y -= 22;
    },
    paragraph(text) {
      for (const line of wrap(text, WRAP_CHARS)) {
        show('F1', BODY_SIZE, MARGIN, line);
        y -= BODY_LEADING;
      }
      y -= 10;
    },
    bullets(items) {
      for (const item of items) {
        if (item.length > WRAP_CHARS - 2) throw new Error(`bullet too long to fit one line: ${item}`);
        show('F1', BODY_SIZE, MARGIN + 12, `• ${item}`);
        y -= BODY_LEADING + 3;
      }
      y -= 10;
    },
    /** @param {number[]} columnX left edge of each column; the first row is set in bold */
    table(rows, columnX) {
      rows.forEach((row, index) => {
        row.forEach((cell, column) => show(index === 0 ? 'F2' : 'F1', BODY_SIZE, columnX[column], cell));
        y -= BODY_LEADING + 3;
      });
      y -= 10;
    },
    content() {
      // Every Helvetica digit is 556/1000 em wide, so the page number can be centred exactly.
      const label = String(pageNumber);
      const size = 9;
      const x = (PAGE_WIDTH - label.length * 0.556 * size) / 2;
      ops.push(`BT /F1 ${size} Tf ${x.toFixed(2)} 36 Td ${pdfString(label)} Tj ET`);
      return ops.join('\n');
    },
  };
}

function reportPages() {
  const first = createPage(1);
  first.title('Millbrook Quarterly Report');
  first.subtitle('Millbrook Cooperative - third quarter 2025');
  first.heading('1. Summary');
  first.paragraph(
    'Millbrook Cooperative closed the third quarter with 212 member households, up from 197 at ' +
      'the end of June. Most of the growth came from the new Saturday pickup point at the old ' +
      'railway depot (opened in July), which brought in families from the east side of town who ' +
      'had found the weekday collection hours difficult.',
  );
  first.paragraph(
    'Produce sales rose by 9 percent while operating costs stayed almost flat. The board has set ' +
      'aside part of the surplus for a second walk-in cooler, so that the soft-fruit season next ' +
      "summer does not repeat this year's losses. The figures below are unaudited and rounded to " +
      'the nearest dollar.',
  );
  first.heading('2. Key figures');
  first.table(
    [
      ['Measure', 'Q2 2025', 'Q3 2025'],
      ['Member households', '197', '212'],
      ['Produce sales', '$48,310', '$52,660'],
      ['Operating costs', '$41,905', '$42,480'],
    ],
    [MARGIN, 288, 420],
  );

  const second = createPage(2);
  second.heading('3. Priorities for the fourth quarter');
  second.bullets([
    'Order and install the second walk-in cooler before March.',
    'Recruit four more volunteer drivers for the Saturday route.',
    'Publish a simple price list for bulk orders of flour and oats.',
    'Review the member fee (currently $15 a month) at the December meeting.',
  ]);
  second.heading('4. Contact');
  second.paragraph(
    'Questions about this report can go to the treasurer, Ines Okafor, or be raised at the open ' +
      'meeting on 14 November. The full accounts are kept in the shared folder ' +
      '\\\\millbrook\\finance\\2025 and at the depot office, and any member may ask for a copy.',
  );
  return [first.content(), second.content()];
}

/**
 * Serialises numbered objects (object n is bodies[n - 1]) with a classic xref table.
 * Bodies are latin1 strings, so string length equals byte length when computing offsets.
 */
function serialisePdf(bodies, rootNumber, infoNumber) {
  // The second line is the customary binary comment that tells transfer tools the file is binary.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = bodies.map((body, index) => {
    const offset = out.length;
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xrefOffset = out.length;
  const size = bodies.length + 1;
  // Each xref entry must be exactly 20 bytes, hence the trailing space before the newline.
  out += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${size} /Root ${rootNumber} 0 R /Info ${infoNumber} 0 R >>\n`;
  out += `startxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// Content streams are left uncompressed: raw deflate output can change between zlib builds,
// which would break byte-for-byte reproducibility, and plain operators are easier to inspect.
function stream(content) {
  return `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
}

function makeReportPdf() {
  const [page1, page2] = reportPages();
  const font = (name) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  const resources = '<< /Font << /F1 5 0 R /F2 6 0 R >> >>';
  const page = (contents) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
    `/Resources ${resources} /Contents ${contents} 0 R >>`;
  const date = pdfString('D:20260101000000Z');
  return serialisePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
      page(7),
      page(8),
      font('Helvetica'),
      font('Helvetica-Bold'),
      stream(page1),
      stream(page2),
      `<< /Title ${pdfString('Millbrook Quarterly Report')} /Author ${pdfString('docmill examples')} ` +
        `/Creator ${pdfString('scripts/make-examples.mjs')} /CreationDate ${date} /ModDate ${date} >>`,
    ],
    1,
    9,
  );
}

// ---------------------------------------------------------------------------------------------
// notes.html

// The nav and footer are deliberate boilerplate for a main-content extractor to discard.
function makeNotesHtml() {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Oat and Honey Loaf - Millbrook Kitchen Notes</title>
  <meta name="description" content="The Millbrook Cooperative kitchen team's recipe for a soft oat and honey sandwich loaf.">
</head>
<body>
  <nav class="site-nav">
    <a href="index.html">Home</a> |
    <a href="recipes/index.html">Recipes</a> |
    <a href="inventory.csv">Inventory</a> |
    <a href="about.html">About the cooperative</a>
  </nav>

  <main>
    <article>
      <h1>Oat and Honey Loaf</h1>
      <p>This is the sandwich loaf we bake for the Saturday pickup. It uses the rolled oats and
        honey from our own shelves, so check the <a href="inventory.csv">current inventory</a>
        before planning a large batch.</p>
      <img src="images/oat-loaf.jpg" alt="A golden oat and honey loaf cooling on a wire rack" width="640" height="427">

      <h2>Ingredients</h2>
      <table>
        <thead>
          <tr><th>Ingredient</th><th>Quantity</th><th>Notes</th></tr>
        </thead>
        <tbody>
          <tr><td>Strong white flour</td><td>400 g</td><td>Plus extra for dusting</td></tr>
          <tr><td>Rolled oats</td><td>100 g</td><td>Soaked in the warm milk</td></tr>
          <tr><td>Honey</td><td>2 tbsp</td><td>Runny honey mixes in more easily</td></tr>
          <tr><td>Milk and water</td><td>300 ml</td><td>Half and half, warmed to blood heat</td></tr>
          <tr><td>Dried yeast</td><td>7 g</td><td>One sachet</td></tr>
          <tr><td>Salt</td><td>1 tsp</td><td></td></tr>
        </tbody>
      </table>

      <h2>Method</h2>
      <ol>
        <li>Pour the warm milk and water over the oats and leave them for ten minutes.</li>
        <li>Stir in the honey and yeast, then add the flour and salt and mix to a shaggy dough.</li>
        <li>Knead for eight minutes until smooth, cover, and leave until doubled in size.</li>
        <li>Shape into a loaf, place in a greased tin and prove for another 40 minutes.</li>
        <li>Bake at 200 &deg;C for 30 to 35 minutes, until the base sounds hollow when tapped.</li>
      </ol>

      <h2>Kitchen notes</h2>
      <p>The loaf keeps for three days wrapped in a cloth. On hot days the dough proves much
        faster, so start checking it after 45 minutes rather than trusting the clock.</p>
    </article>
  </main>

  <footer class="site-footer">
    <p>Millbrook Cooperative is a fictional organisation. Sample page generated for docmill.</p>
    <p><a href="privacy.html">Privacy</a> | <a href="contact.html">Contact</a></p>
  </footer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// inventory.csv

function csvField(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function makeInventoryCsv() {
  const rows = [
    ['sku', 'name', 'category', 'unit', 'price', 'in_stock'],
    ['MB-001', 'Rolled oats', 'Grains', 'kg', '2.40', 46],
    ['MB-002', 'Flour, stoneground wholemeal', 'Grains', 'kg', '1.85', 120],
    ['MB-003', 'Wildflower honey', 'Pantry', 'jar', '6.50', 18],
    ['MB-004', 'Crème fraîche', 'Dairy', 'tub', '2.10', 12],
    ['MB-005', 'Mason jar, 12 oz "wide mouth"', 'Kitchenware', 'each', '3.25', 30],
    ['MB-006', 'Free-range eggs', 'Dairy', 'dozen', '4.20', 25],
    ['MB-007', 'Seed potatoes', 'Garden', 'kg', '1.60', 80],
    ['MB-008', 'Apple cider vinegar', 'Pantry', 'bottle', '3.90', 0],
  ];
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// minutes.docx

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A run is plain text or { text, bold, italic }. */
function wRun(run) {
  const { text, bold = false, italic = false } = typeof run === 'string' ? { text: run } : run;
  const props = (bold ? '<w:b/>' : '') + (italic ? '<w:i/>' : '');
  // Runs often begin or end with a space, which Word drops unless told to preserve it.
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r>`;
}

function wParagraph(runs, style) {
  const props = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${props}${runs.map(wRun).join('')}</w:p>`;
}

function wTable(rows) {
  const width = 3000; // twentieths of a point per column, 15 cm in total
  const grid = rows[0].map(() => `<w:gridCol w:w="${width}"/>`).join('');
  const body = rows
    .map((row, index) => {
      // tblHeader marks the first row as a header that repeats across pages.
      const rowProps = index === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : '';
      const cells = row
        .map(
          (cell) =>
            `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>` +
            wParagraph([{ text: cell, bold: index === 0 }]) +
            '</w:tc>',
        )
        .join('');
      return `<w:tr>${rowProps}${cells}</w:tr>`;
    })
    .join('');
  return (
    '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>' +
    `<w:tblGrid>${grid}</w:tblGrid>${body}</w:tbl>`
  );
}

function minutesDocument() {
  const body = [
    wParagraph(['Board Meeting Minutes'], 'Heading1'),
    wParagraph([
      { text: 'Millbrook Cooperative', bold: true },
      ', held at the depot office on 8 October 2025 at 7 pm.',
    ]),
    wParagraph([
      { text: 'Present: ', bold: true },
      'Ines Okafor (treasurer), Tomás Reyes, Priya Nandakumar, Walt Brennan. ',
      { text: 'Apologies: ', bold: true },
      'Dana Kowalczyk.',
    ]),
    wParagraph(['Decisions'], 'Heading2'),
    wParagraph([
      'The board agreed to buy a second walk-in cooler, subject to ',
      { text: 'at least two', italic: true },
      ' written quotes. The quarterly report was approved ',
      { text: 'without amendment', bold: true, italic: true },
      ', and the member fee will stay at $15 until the December review.',
    ]),
    wTable([
      ['Action', 'Owner', 'Due'],
      ['Collect quotes for the second cooler', 'Ines Okafor', '31 October'],
      ['Draft the bulk-order price list', 'Tomás Reyes', '15 November'],
    ]),
    wParagraph(['Next meeting'], 'Heading2'),
    wParagraph([
      'The next meeting is on ',
      { text: '12 November 2025', bold: true },
      ', again at the depot office. ',
      { text: 'Minutes taken by Priya Nandakumar.', italic: true },
    ]),
  ].join('');
  // US Letter with one-inch margins, in twentieths of a point.
  const section =
    '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/>' +
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>' +
    '</w:sectPr>';
  return `${XML_DECL}<w:document xmlns:w="${W_NS}" xmlns:r="${REL}"><w:body>${body}${section}</w:body></w:document>`;
}

function headingStyle(id, name, level, halfPoints) {
  return (
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/>` +
    '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/>' +
    `<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="${level}"/></w:pPr>` +
    `<w:rPr><w:b/><w:sz w:val="${halfPoints}"/></w:rPr></w:style>`
  );
}

function minutesStyles() {
  const border = (side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>`;
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('');
  return (
    `${XML_DECL}<w:styles xmlns:w="${W_NS}">` +
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/>' +
    '<w:sz w:val="22"/></w:rPr></w:rPrDefault>' +
    '<w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults>' +
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>' +
    headingStyle('Heading1', 'heading 1', 0, 32) +
    headingStyle('Heading2', 'heading 2', 1, 26) +
    '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/>' +
    '<w:tblPr><w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>' +
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/>' +
    `<w:tblPr><w:tblBorders>${borders}</w:tblBorders></w:tblPr></w:style>` +
    '</w:styles>'
  );
}

function makeMinutesDocx() {
  return makeZip([
    [
      '[Content_Types].xml',
      contentTypes({
        '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        '/word/styles.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml',
      }),
    ],
    ['_rels/.rels', relationships([['rId1', `${REL}/officeDocument`, 'word/document.xml']])],
    ['word/document.xml', minutesDocument()],
    // Word only finds styles.xml through this relationship, so the file cannot be empty.
    ['word/_rels/document.xml.rels', relationships([['rId1', `${REL}/styles`, 'styles.xml']])],
    ['word/styles.xml', minutesStyles()],
  ]);
}

// ---------------------------------------------------------------------------------------------
// budget.xlsx

const S_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
// Cell style indexes into cellXfs in budgetStyles().
const STYLE_DATE = 1;
const STYLE_HEADER = 2;

// Spreadsheet dates are day counts in the 1900 date system, whose epoch is effectively 1899-12-30.
function excelDate(isoDate) {
  return (Date.parse(`${isoDate}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

function columnName(index) {
  return String.fromCharCode(65 + index); // the sheets never go past column Z
}

function createSharedStrings() {
  const strings = [];
  const index = new Map();
  let uses = 0;
  return {
    ref(text) {
      uses += 1;
      if (!index.has(text)) {
        index.set(text, strings.length);
        strings.push(text);
      }
      return index.get(text);
    },
    xml() {
      const items = strings.map((text) => `<si><t>${xmlEscape(text)}</t></si>`).join('');
      return `${XML_DECL}<sst xmlns="${S_NS}" count="${uses}" uniqueCount="${strings.length}">${items}</sst>`;
    },
  };
}

/** A cell is a string, a number, { date: 'YYYY-MM-DD' } or { formula, value }. */
function xlsxCell(ref, cell, shared, style) {
  const s = style ? ` s="${style}"` : '';
  if (typeof cell === 'string') return `<c r="${ref}"${s} t="s"><v>${shared.ref(cell)}</v></c>`;
  if (typeof cell === 'number') return `<c r="${ref}"${s}><v>${cell}</v></c>`;
  if ('date' in cell) return `<c r="${ref}" s="${STYLE_DATE}"><v>${excelDate(cell.date)}</v></c>`;
  return `<c r="${ref}"${s}><f>${cell.formula}</f><v>${cell.value}</v></c>`;
}

function budgetSheet(header, lines, shared) {
  // The cached total is computed here so it always agrees with the SUM formula.
  const total = lines.reduce((sum, line) => sum + line[1], 0);
  const last = lines.length + 1;
  const rows = [header, ...lines, ['Total', { formula: `SUM(B2:B${last})`, value: total }]];
  const rowXml = rows
    .map((row, r) => {
      const cells = row
        .map((cell, c) => xlsxCell(`${columnName(c)}${r + 1}`, cell, shared, r === 0 ? STYLE_HEADER : 0))
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  const lastRef = `${columnName(header.length - 1)}${rows.length}`;
  const cols =
    '<cols><col min="1" max="1" width="28" customWidth="1"/><col min="2" max="3" width="14" customWidth="1"/>' +
    '<col min="4" max="4" width="18" customWidth="1"/></cols>';
  return (
    `${XML_DECL}<worksheet xmlns="${S_NS}"><dimension ref="A1:${lastRef}"/>` +
    `${cols}<sheetData>${rowXml}</sheetData></worksheet>`
  );
}

function budgetStyles() {
  return (
    `${XML_DECL}<styleSheet xmlns="${S_NS}">` +
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>' +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>' +
    '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    // Excel expects the first two fills to be these reserved defaults.
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
}

function makeBudgetXlsx() {
  const shared = createSharedStrings();
  const header = ['Line item', 'Amount', 'Approved on', 'Owner'];
  const q1 = budgetSheet(
    header,
    [
      ['Seed stock', 1250, { date: '2025-01-14' }, 'Walt Brennan'],
      ['Equipment repair', 830.5, { date: '2025-02-03' }, 'Tomás Reyes'],
      ['Market stall fees', 420, { date: '2025-03-10' }, 'Ines Okafor'],
    ],
    shared,
  );
  const q2 = budgetSheet(
    header,
    [
      ['Seed stock', 980, { date: '2025-04-08' }, 'Walt Brennan'],
      ['Irrigation pipes', 1475.25, { date: '2025-05-19' }, 'Priya Nandakumar'],
      ['Market stall fees', 420, { date: '2025-06-02' }, 'Ines Okafor'],
    ],
    shared,
  );
  const sheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
  const workbook =
    `${XML_DECL}<workbook xmlns="${S_NS}" xmlns:r="${REL}"><sheets>` +
    '<sheet name="Q1" sheetId="1" r:id="rId1"/><sheet name="Q2" sheetId="2" r:id="rId2"/>' +
    '</sheets></workbook>';
  return makeZip([
    [
      '[Content_Types].xml',
      contentTypes({
        '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
        '/xl/worksheets/sheet1.xml': sheetType,
        '/xl/worksheets/sheet2.xml': sheetType,
        '/xl/sharedStrings.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml',
        '/xl/styles.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml',
      }),
    ],
    ['_rels/.rels', relationships([['rId1', `${REL}/officeDocument`, 'xl/workbook.xml']])],
    ['xl/workbook.xml', workbook],
    [
      'xl/_rels/workbook.xml.rels',
      relationships([
        ['rId1', `${REL}/worksheet`, 'worksheets/sheet1.xml'],
        ['rId2', `${REL}/worksheet`, 'worksheets/sheet2.xml'],
        ['rId3', `${REL}/styles`, 'styles.xml'],
        ['rId4', `${REL}/sharedStrings`, 'sharedStrings.xml'],
      ]),
    ],
    ['xl/worksheets/sheet1.xml', q1],
    ['xl/worksheets/sheet2.xml', q2],
    ['xl/sharedStrings.xml', shared.xml()],
    ['xl/styles.xml', budgetStyles()],
  ]);
}

// ---------------------------------------------------------------------------------------------

const outputs = {
  'report.pdf': makeReportPdf,
  'notes.html': makeNotesHtml,
  'inventory.csv': makeInventoryCsv,
  'minutes.docx': makeMinutesDocx,
  'budget.xlsx': makeBudgetXlsx,
};

mkdirSync(OUT_DIR, { recursive: true });
for (const [name, make] of Object.entries(outputs)) {
  const content = make();
  const path = join(OUT_DIR, name);
  writeFileSync(path, content);
  process.stdout.write(`wrote ${relative(process.cwd(), path)} (${Buffer.byteLength(content)} bytes)\n`);
}
