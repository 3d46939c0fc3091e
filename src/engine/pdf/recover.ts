/**
 * Last-resort repair of a PDF pdfjs refuses outright (typically cut short: no cross-reference table, no
 * trailer, no catalogue). pdfjs already rebuilds a missing xref by scanning objects, but it needs a catalogue.
 * When the file still holds page objects written in the clear, this appends a new page tree, a catalogue and a
 * trailer (and copies of the pages pointing to the new tree, with a default MediaBox when theirs was inherited),
 * so that what survived can be read. Returns null when there is nothing to recover.
 */

const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const MAX_PAGES = 10_000;

function latin1(bytes: Uint8Array): string {
  // Chunked to keep argument lists small.
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x8000)));
  }
  return out;
}

export function recoverTruncatedPdf(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length === 0 || bytes.length > MAX_SCAN_BYTES) return null;
  const text = latin1(bytes);
  if (/\/Type\s*\/Catalog\b/.test(text)) return null;
  const objectPattern = /(?:^|[\r\n\s])(\d{1,10})\s+(\d{1,5})\s+obj\b/g;
  const pages: { num: number; dict: string }[] = [];
  let maxNum = 0;
  for (let match = objectPattern.exec(text); match; match = objectPattern.exec(text)) {
    const num = Number(match[1]);
    maxNum = Math.max(maxNum, num);
    const bodyStart = match.index + match[0].length;
    const end = text.indexOf('endobj', bodyStart);
    const body = text.slice(bodyStart, end < 0 ? Math.min(text.length, bodyStart + 8192) : end);
    if (/\bstream\b/.test(body.slice(0, 2048)) && !/\/Type\s*\/Page\b/.test(body.slice(0, 2048))) continue;
    if (!/\/Type\s*\/Page(?![s\w])/.test(body)) continue;
    const dict = body.trim();
    if (!dict.startsWith('<<') || !dict.endsWith('>>')) continue;
    pages.push({ num, dict });
    if (pages.length >= MAX_PAGES) break;
  }
  if (pages.length === 0) return null;
  const treeNum = maxNum + 1;
  const catalogNum = maxNum + 2;
  const parts: string[] = ['\n'];
  for (const page of pages) {
    let dict = page.dict.replace(/\/Parent\s+\d+\s+\d+\s+R/, `/Parent ${treeNum} 0 R`);
    if (!/\/Parent\b/.test(dict)) dict = dict.replace(/^<</, `<< /Parent ${treeNum} 0 R`);
    if (!/\/MediaBox\b/.test(dict)) dict = dict.replace(/^<</, '<< /MediaBox [0 0 612 792]');
    parts.push(`${page.num} 0 obj\n${dict}\nendobj\n`);
  }
  const kids = pages.map((page) => `${page.num} 0 R`).join(' ');
  parts.push(`${treeNum} 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>\nendobj\n`);
  parts.push(`${catalogNum} 0 obj\n<< /Type /Catalog /Pages ${treeNum} 0 R >>\nendobj\n`);
  parts.push(`trailer\n<< /Size ${catalogNum + 1} /Root ${catalogNum} 0 R >>\nstartxref\n0\n%%EOF\n`);
  const tail = new TextEncoder().encode(parts.join(''));
  const out = new Uint8Array(bytes.length + tail.length);
  out.set(bytes, 0);
  out.set(tail, bytes.length);
  return out;
}
