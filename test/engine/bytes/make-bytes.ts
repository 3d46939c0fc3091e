/** Small generated containers for the sniffing and routing tests. */
import * as XLSX from '@e965/xlsx';

/** An OLE compound file (written by SheetJS's CFB writer) with streams of the given names and sizes. */
export function oleFile(streams: Record<string, number>): Uint8Array {
  const container = XLSX.CFB.utils.cfb_new();
  for (const [name, size] of Object.entries(streams)) {
    XLSX.CFB.utils.cfb_add(container, `/${name}`, Buffer.alloc(size, 0x41));
  }
  return new Uint8Array(XLSX.CFB.write(container, { type: 'buffer' }) as Buffer);
}

/** A copy of a zip whose end record points its central directory at `offset` (a damaged archive). */
export function withEndOfCentralDirectoryOffset(zip: Uint8Array, offset: number): Uint8Array {
  const copy = new Uint8Array(zip);
  const view = new DataView(copy.buffer);
  for (let at = copy.length - 22; at >= 0; at -= 1) {
    if (view.getUint32(at, true) === 0x06054b50) {
      view.setUint32(at + 16, offset, true);
      return copy;
    }
  }
  throw new Error('no end of central directory record');
}
