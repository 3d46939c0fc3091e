/**
 * A minimal Word 97-2003 document for tests: a FIB, the main text in two pieces (the first 8-bit "compressed"
 * Windows-1252, the rest UTF-16LE) through a piece table in 1Table, optional footnotes (PlcffndRef/PlcffndTxt)
 * and text boxes (PlcSpaMom/PlcftxbxTxt).
 * No style sheet and no property pages: every paragraph reads as Normal. Word's special characters (0x0D, 0x0C,
 * 0x13-0x15, 0x02...) are written as given in the text.
 */
import { ByteWriter, writeCfb } from './make-cfb.js';

export interface DocSpec {
  /** The main text; split into an 8-bit piece and a UTF-16 piece at `splitAt` (default: the middle). */
  main: string;
  splitAt?: number;
  /** Footnote texts, referenced in order by the 0x02 characters of `main`. */
  footnotes?: string[];
  /** Text box texts, anchored in order by the 0x08 characters of `main`. */
  textBoxes?: string[];
  encrypted?: boolean;
  nFib?: number;
  /** Replace the CLX with these bytes (damaged piece tables). */
  clx?: Uint8Array;
  /** Extra streams (\u0005SummaryInformation...). */
  streams?: { name: string; data: Uint8Array }[];
}

const FIB_SIZE = 0x384;
const TEXT_AT = 0x400;
const FC_LCB_AT = 0x9a;
const RG_LW_AT = 0x40;

export function makeDoc(spec: DocSpec): Uint8Array {
  const footnotes = spec.footnotes ?? [];
  const footnoteStory = footnotes.map((note) => `\u0002 ${note}\r`).join('');
  const boxes = spec.textBoxes ?? [];
  const textBoxStory = boxes.map((box) => `${box}\r`).join('');
  // When any story besides the main one is not empty, Word ends the text with one more paragraph mark.
  const all = spec.main + footnoteStory + textBoxStory + (footnoteStory === '' && textBoxStory === '' ? '' : '\r');
  const split = Math.min(spec.splitAt ?? Math.floor(spec.main.length / 2), all.length);

  const word = new ByteWriter();
  word.u16(0xa5ec).u16(spec.nFib ?? 0x00c1).u16(0).u16(0x0409).u16(0);
  word.u16(0x0200 | (spec.encrypted ? 0x0100 : 0)).u16(0x00bf);
  word.padTo(0x20).u16(14).padTo(0x22 + 28).u16(22).padTo(RG_LW_AT + 88).u16(0x5d).padTo(FIB_SIZE);
  word.padTo(TEXT_AT);
  const firstFc = word.length;
  for (const char of all.slice(0, split)) word.u8(cp1252Byte(char));
  const secondFc = word.length;
  word.utf16(all.slice(split));
  word.set32(RG_LW_AT + 3 * 4, spec.main.length).set32(RG_LW_AT + 4 * 4, footnoteStory.length).set32(RG_LW_AT + 9 * 4, textBoxStory.length);

  const table = new ByteWriter();
  const pieces: [cpStart: number, cpEnd: number, fc: number][] = [[0, split, firstFc * 2 + 0x40000000]];
  if (split < all.length) pieces.push([split, all.length, secondFc]);
  const clxAt = table.length;
  if (spec.clx !== undefined) {
    table.bytes(spec.clx);
  } else {
    table.u8(0x02).u32(4 * (pieces.length + 1) + 8 * pieces.length);
    for (const [cpStart] of pieces) table.u32(cpStart);
    table.u32(all.length);
    for (const [, , fc] of pieces) table.u16(0).u32(fc).u16(0);
  }
  const clxLength = table.length - clxAt;
  const setFcLcb = (index: number, fc: number, lcb: number) => {
    word.set32(FC_LCB_AT + index * 8, fc).set32(FC_LCB_AT + index * 8 + 4, lcb);
  };
  setFcLcb(33, clxAt, clxLength);

  if (footnotes.length > 0) {
    const refs = [...spec.main].flatMap((char, cp) => (char === '\u0002' ? [cp] : []));
    const refAt = table.length;
    for (const cp of refs) table.u32(cp);
    table.u32(spec.main.length);
    for (let index = 0; index < refs.length; index += 1) table.u16(index + 1);
    setFcLcb(2, refAt, table.length - refAt);
    const textAt = table.length;
    let cp = 0;
    table.u32(0);
    for (const note of footnotes) {
      cp += `\u0002 ${note}\r`.length;
      table.u32(cp);
    }
    table.u32(cp + 1);
    setFcLcb(3, textAt, table.length - textAt);
  }

  if (boxes.length > 0) {
    // PlcSpaMom: anchor CPs, then 26-byte FSPAs starting with the shape id.
    const anchors = [...spec.main].flatMap((char, cp) => (char === '\u0008' ? [cp] : []));
    const spaAt = table.length;
    for (const cp of anchors) table.u32(cp);
    table.u32(spec.main.length);
    anchors.forEach((_, index) => table.u32(1000 + index).padTo(table.length + 22));
    setFcLcb(40, spaAt, table.length - spaAt);
    // PlcftxbxTxt: story ranges (and a last, dummy one), then 22-byte FTXBXSs whose lid names the shape.
    const boxAt = table.length;
    let cp = 0;
    table.u32(0);
    for (const box of boxes) {
      cp += box.length + 1;
      table.u32(cp);
    }
    table.u32(cp + 1);
    for (let index = 0; index <= boxes.length; index += 1) {
      table.u32(1).u32(0).u16(0).u32(0).u32(index < boxes.length ? 1000 + index : 0).u32(0);
    }
    setFcLcb(56, boxAt, table.length - boxAt);
  }

  return writeCfb([
    { name: 'WordDocument', data: word.toBytes() },
    { name: '1Table', data: table.toBytes() },
    ...(spec.streams ?? []),
  ]).bytes;
}

const CP1252_EXTRA = new Map<string, number>([
  ['\u201c', 0x93],
  ['\u201d', 0x94],
  ['\u2019', 0x92],
  ['\u20ac', 0x80],
  ['\u2013', 0x96],
]);

function cp1252Byte(char: string): number {
  const mapped = CP1252_EXTRA.get(char);
  if (mapped !== undefined) return mapped;
  const code = char.charCodeAt(0);
  if (code > 0xff) throw new Error(`makeDoc: ${char} is not in the 8-bit piece's code page`);
  return code;
}

/** A `\u0005SummaryInformation` property set with string properties (2 title, 4 author), code page 1252. */
export function summaryInformation(properties: Record<number, string>): Uint8Array {
  const entries = Object.entries(properties).map(([id, value]) => [Number(id), value] as const);
  const values = new ByteWriter();
  const offsets: number[] = [];
  const headerSize = 8 + (entries.length + 1) * 8;
  offsets.push(headerSize + values.length);
  values.u16(0x02).u16(0).u16(1252).u16(0);
  for (const [, value] of entries) {
    offsets.push(headerSize + values.length);
    values.u16(0x1e).u16(0).u32(value.length + 1).latin1(value).u8(0);
    values.padTo(Math.ceil(values.length / 4) * 4);
  }
  const section = new ByteWriter();
  section.u32(headerSize + values.length).u32(entries.length + 1);
  section.u32(1).u32(offsets[0] as number);
  entries.forEach(([id], index) => section.u32(id).u32(offsets[index + 1] as number));
  section.bytes(values.toBytes());
  const stream = new ByteWriter();
  stream.u16(0xfffe).u16(0).u32(0x00020005).padTo(24).u32(1);
  stream.bytes([0xe0, 0x85, 0x9f, 0xf2, 0xf9, 0x4f, 0x68, 0x10, 0xab, 0x91, 0x08, 0x00, 0x2b, 0x27, 0xb3, 0xd9]).u32(48);
  stream.bytes(section.toBytes());
  return stream.toBytes();
}
