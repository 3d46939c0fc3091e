/**
 * A minimal PDF writer for benchmarks: `pages` pages of distinct running text (a heading, paragraphs, a page
 * number), set in the standard Helvetica fonts (not embedded, WinAnsi), one uncompressed content stream per page.
 * Deterministic for a given seed. No dependencies: the cross-reference table is written by hand.
 */

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were her all she there would their we him been has when who will more no if out so said what up its about ' +
  'into than them can only other new some could time these two may then do first any my now such like our over ' +
  'man me even most made after also did many before must through back years where much your way well down should ' +
  'because each just those people how too little state good very make world still own see men work long get here ' +
  'between both life being under never day same another know while last might us great old year off come since ' +
  'against go came right used take three document parser extraction throughput layout column table heading page ' +
  'reading order paragraph benchmark archive converter markdown section figure caption report annual revenue ' +
  'method result analysis measurement latency capacity request response worker queue memory engine thread'
).split(' ');

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TextPdfOptions {
  pages: number;
  seed?: number;
  /** Text lines of body per page. @default 48 */
  linesPerPage?: number;
}

export function makeTextPdf(options: TextPdfOptions): Buffer {
  const random = prng(options.seed ?? 1);
  const linesPerPage = options.linesPerPage ?? 48;
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x';
  const line = (chars: number) => {
    let text = word();
    while (text.length < chars) text += ` ${word()}`;
    return text;
  };

  const objects: string[] = [];
  // 1: catalogue, 2: page tree, 3: Helvetica, 4: Helvetica-Bold; then per page: page, content.
  const pageIds: number[] = [];
  for (let p = 0; p < options.pages; p++) pageIds.push(5 + p * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${options.pages} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  for (let p = 0; p < options.pages; p++) {
    const pageId = 5 + p * 2;
    const contentId = pageId + 1;
    const parts: string[] = [];
    const heading = `${p + 1}. ${line(24)}`.slice(0, 60);
    parts.push(`BT /F2 16 Tf 72 736 Td (${heading}) Tj ET`);
    parts.push('BT /F1 10 Tf 12 TL 72 704 Td');
    for (let l = 0; l < linesPerPage; l++) {
      // A paragraph break every 8 lines: an empty line, and a shorter last line before it.
      if (l > 0 && l % 8 === 0) parts.push('T*');
      const text = l % 8 === 7 ? line(40) : line(86);
      parts.push(`(${text}) Tj T*`);
    }
    parts.push('ET');
    parts.push(`BT /F1 9 Tf 300 40 Td (${p + 1}) Tj ET`);
    const stream = parts.join('\n');
    objects[pageId] =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentId} 0 R >>`;
    objects[contentId] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  }

  const chunks: string[] = ['%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'];
  let offset = Buffer.byteLength(chunks[0] ?? '', 'latin1');
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    const text = `${id} 0 obj\n${objects[id]}\nendobj\n`;
    offsets[id] = offset;
    chunks.push(text);
    offset += Buffer.byteLength(text, 'latin1');
  }
  const xref = [`xref\n0 ${objects.length}\n`, '0000000000 65535 f \n'];
  for (let id = 1; id < objects.length; id++) xref.push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  chunks.push(xref.join(''));
  chunks.push(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`);
  return Buffer.from(chunks.join(''), 'latin1');
}
