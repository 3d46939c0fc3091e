/**
 * Title, author, subject, keywords, comments and last author from the `\x05SummaryInformation` property set of a
 * compound file ([MS-OLEPS]), the document properties of every Office 97-2003 file. Only string properties are read;
 * anything unreadable is left out (metadata never fails a conversion).
 */
import iconv from 'iconv-lite';
import type { MetadataValue } from '../model.js';
import { readU16, readU32, utf16 } from './bytes.js';
import type { CompoundFile } from '../bytes/cfb.js';

const STREAM = '\u0005SummaryInformation';
const VT_I2 = 0x02;
const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;
const PID_CODEPAGE = 1;
/** Property identifier → metadata key (the keys the DOCX converter uses). */
const KEYS = new Map<number, string>([
  [2, 'title'],
  [3, 'subject'],
  [4, 'author'],
  [5, 'keywords'],
  [6, 'description'],
  [8, 'lastModifiedBy'],
]);
const MAX_PROPERTIES = 1024;
const MAX_STRING_BYTES = 64 * 1024;

export function readSummaryInformation(container: CompoundFile): Record<string, MetadataValue> {
  let stream: Uint8Array | null;
  try {
    stream = container.read(STREAM);
  } catch {
    return {};
  }
  if (stream === null || stream.length < 48 || readU16(stream, 0) !== 0xfffe) return {};
  const section = readU32(stream, 44);
  if (section + 8 > stream.length) return {};
  const count = Math.min(readU32(stream, section + 4), MAX_PROPERTIES);
  const offsets = new Map<number, number>();
  for (let index = 0; index < count && section + 8 + index * 8 + 8 <= stream.length; index += 1) {
    offsets.set(readU32(stream, section + 8 + index * 8), section + readU32(stream, section + 12 + index * 8));
  }
  const codepageAt = offsets.get(PID_CODEPAGE);
  const codepage = codepageAt !== undefined && readU16(stream, codepageAt) === VT_I2 ? readU16(stream, codepageAt + 4) : 1252;
  const metadata: Record<string, MetadataValue> = {};
  for (const [id, key] of KEYS) {
    const at = offsets.get(id);
    if (at === undefined || at + 8 > stream.length) continue;
    const value = readString(stream, at, codepage);
    if (value !== undefined && value !== '') metadata[key] = value;
  }
  return metadata;
}

function readString(stream: Uint8Array, at: number, codepage: number): string | undefined {
  const type = readU16(stream, at);
  const size = readU32(stream, at + 4);
  if (type === VT_LPWSTR) {
    if (size * 2 > MAX_STRING_BYTES) return undefined;
    return clean(utf16(stream, at + 8, size));
  }
  if (type !== VT_LPSTR || size > MAX_STRING_BYTES) return undefined;
  const bytes = Buffer.from(stream.subarray(at + 8, Math.min(stream.length, at + 8 + size)));
  if (codepage === 1200) return clean(bytes.toString('utf16le'));
  if (codepage === 65001) return clean(bytes.toString('utf8'));
  const encoding = iconv.encodingExists(`cp${codepage}`) ? `cp${codepage}` : 'windows-1252';
  return clean(iconv.decode(bytes, encoding));
}

function clean(text: string): string {
  const end = text.indexOf('\0');
  return (end >= 0 ? text.slice(0, end) : text).trim();
}
