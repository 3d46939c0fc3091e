/**
 * Whether a Word 97-2003 list level is bulleted or numbered. A paragraph names a list override (ilfo, 1-based
 * into PlfLfo) and a level (ilvl); the override names a list by its lsid; the list's definition (LSTF in PlfLst)
 * is followed, after all the definitions and outside PlfLst's stated length, by its levels (LVL, one for a simple
 * list, nine otherwise), whose number format (nfc) says what the marker is: 0x17 is a bullet, 0xFF no marker,
 * anything else a number of some style.
 */
import { readI32, readU16, readU32, readU8 } from './bytes.js';

export type ListKind = 'bullet' | 'number';

export interface ListFormats {
  kindOf(ilfo: number, ilvl: number): ListKind;
}

const NFC_BULLET = 0x17;
const NFC_NONE = 0xff;
const LSTF_SIZE = 28;
const LVLF_SIZE = 28;
const LFO_SIZE = 16;
const MAX_LISTS = 32_767;

export function readListFormats(table: Uint8Array, plfLst: [number, number], plfLfo: [number, number]): ListFormats {
  const levelsByLsid = readLists(table, plfLst[0], plfLst[1]);
  const lsidByIlfo = readOverrides(table, plfLfo[0], plfLfo[1]);
  return {
    kindOf: (ilfo, ilvl) => {
      const lsid = lsidByIlfo[ilfo - 1];
      const levels = lsid === undefined ? undefined : levelsByLsid.get(lsid);
      const nfc = levels?.[Math.min(ilvl, levels.length - 1)];
      // An unknown list is read as bulleted, the more common kind.
      return nfc === undefined || nfc === NFC_BULLET || nfc === NFC_NONE ? 'bullet' : 'number';
    },
  };
}

function readLists(table: Uint8Array, offset: number, length: number): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  const end = Math.min(offset + length, table.length);
  if (length < 2 || end <= offset) return lists;
  const count = Math.min(readU16(table, offset), MAX_LISTS);
  const definitions: { lsid: number; levels: number }[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = offset + 2 + index * LSTF_SIZE;
    if (at + LSTF_SIZE > end) return lists;
    const simple = (readU8(table, at + 26) & 0x01) !== 0;
    definitions.push({ lsid: readI32(table, at), levels: simple ? 1 : 9 });
  }
  let at = offset + 2 + count * LSTF_SIZE;
  for (const definition of definitions) {
    const formats: number[] = [];
    for (let level = 0; level < definition.levels; level += 1) {
      if (at + LVLF_SIZE > table.length) return lists;
      formats.push(readU8(table, at + 4));
      const cbGrpprlChpx = readU8(table, at + 24);
      const cbGrpprlPapx = readU8(table, at + 25);
      at += LVLF_SIZE + cbGrpprlPapx + cbGrpprlChpx;
      // The level's number text (an Xst: a count, then UTF-16 code units).
      at += 2 + readU16(table, at) * 2;
    }
    lists.set(definition.lsid, formats);
  }
  return lists;
}

function readOverrides(table: Uint8Array, offset: number, length: number): number[] {
  const end = Math.min(offset + length, table.length);
  if (length < 4 || end <= offset) return [];
  const count = Math.min(readU32(table, offset), MAX_LISTS);
  const lsids: number[] = [];
  for (let index = 0; index < count && offset + 4 + (index + 1) * LFO_SIZE <= end; index += 1) {
    lsids.push(readI32(table, offset + 4 + index * LFO_SIZE));
  }
  return lsids;
}
