/**
 * A minimal PowerPoint 97-2003 presentation for tests: a `PowerPoint Document` stream with a DocumentContainer
 * (DocumentAtom, SlideListWithText for slides and notes, HeadersFootersContainer), Slide and Notes containers
 * (written in reverse order, so that only the slide list gives the presentation order), a PersistDirectoryAtom and
 * a UserEditAtom; and the `Current User` stream pointing at the edit.
 *
 * Placeholder text (title, body) lives in the slide list and is referenced from the slide's drawing through
 * OutlineTextRefAtoms, as PowerPoint writes it; text boxes carry their text in their own ClientTextbox.
 */
import { ByteWriter, writeCfb } from './make-cfb.js';

export interface TextBoxSpec {
  text: string;
  /** [top, left, right, bottom] in master units (576 per inch). */
  anchor: [number, number, number, number];
  /** An OEPlaceholderAtom placeholder type (7 date, 8 slide number, 9 footer...). */
  placeholder?: number;
}

export interface SlideSpec {
  title?: string;
  /** Body paragraphs with their indent levels (bulleted, as the body placeholder is). */
  body?: { text: string; level?: number }[];
  textBoxes?: TextBoxSpec[];
  notes?: string;
  hidden?: boolean;
  /** A table (a group shape with the tableProperties property; cells on a grid, and a border line). */
  table?: string[][];
}

export interface PptSpec {
  slides: SlideSpec[];
  footer?: string;
  /** Text boxes of the master slide (a title prompt placeholder is always written on it too). */
  masterTextBoxes?: TextBoxSpec[];
  /** Current User header token of an encrypted document. */
  encryptedToken?: boolean;
  /** A UserEditAtom naming a CryptSession10Container. */
  cryptSession?: boolean;
  /** Leave out the Current User stream. */
  noCurrentUser?: boolean;
  /** Point the edit's document reference at a persist id that does not exist. */
  badDocumentRef?: boolean;
  streams?: { name: string; data: Uint8Array }[];
}

function record(type: number, data: Uint8Array, instance = 0, version = 0): Uint8Array {
  return new ByteWriter().u16((instance << 4) | version).u16(type).u32(data.length).bytes(data).toBytes();
}

function container(type: number, children: Uint8Array[], instance = 0): Uint8Array {
  const body = new ByteWriter();
  for (const child of children) body.bytes(child);
  return record(type, body.toBytes(), instance, 0x0f);
}

const u32s = (...values: number[]) => {
  const writer = new ByteWriter();
  for (const value of values) writer.u32(value);
  return writer.toBytes();
};
const utf16 = (text: string) => new ByteWriter().utf16(text).toBytes();
const latin1 = (text: string) => new ByteWriter().latin1(text).toBytes();

/** A StyleTextPropAtom with one paragraph run per paragraph (bullet on, the given level) and no character runs. */
function bulletStyle(paragraphs: { text: string; level?: number }[]): Uint8Array {
  const writer = new ByteWriter();
  for (const paragraph of paragraphs) writer.u32(paragraph.text.length + 1).u16(paragraph.level ?? 0).u32(0x01).u16(0x01);
  writer.u32(paragraphs.reduce((sum, paragraph) => sum + paragraph.text.length + 1, 0)).u32(0);
  return writer.toBytes();
}

function shape(parts: Uint8Array[]): Uint8Array {
  return container(0xf004, parts);
}

function anchor([top, left, right, bottom]: [number, number, number, number]): Uint8Array {
  return record(0xf010, new ByteWriter().u16(top).u16(left).u16(right).u16(bottom).toBytes());
}

function placeholderData(type: number): Uint8Array {
  return container(0xf011, [record(0x0bc3, new ByteWriter().u32(0).u8(type).u8(0).u16(0).toBytes())]);
}

function drawing(shapes: Uint8Array[]): Uint8Array {
  return container(0x040c, [container(0xf002, [container(0xf003, shapes)])]);
}

function childAnchor(left: number, top: number, right: number, bottom: number): Uint8Array {
  return record(0xf00f, u32s(left, top, right, bottom));
}

function tableGroup(rows: string[][]): Uint8Array {
  const options = record(0xf00b, new ByteWriter().u16(0x039f).u32(1).toBytes(), 1, 3);
  const members = [shape([options, anchor([1000, 200, 5000, 3000])])];
  // Cells are written column by column, so that only their anchors give the row order.
  const width = Math.max(...rows.map((row) => row.length));
  for (let column = 0; column < width; column += 1) {
    rows.forEach((row, index) => {
      const text = row[column] ?? '';
      members.push(
        shape([
          childAnchor(column * 1000, index * 400, column * 1000 + 1000, index * 400 + 400),
          container(0xf00d, [record(0x0f9f, u32s(4)), record(0x0fa0, utf16(text))]),
        ]),
      );
    });
  }
  // A border: a line shape with no height.
  members.push(shape([childAnchor(0, 400, width * 1000, 400)]));
  return container(0xf003, members);
}

export function makePpt(spec: PptSpec): Uint8Array {
  const slideCount = spec.slides.length;
  // Persist ids: 1 document, 2.. slides, then notes.
  const slidePersist = (index: number) => 2 + index;
  const notesPersist = (index: number) => 2 + slideCount + index;
  const slideId = (index: number) => 256 + index;
  const notesId = (index: number) => 512 + index;

  const slideList: Uint8Array[] = [];
  const notesList: Uint8Array[] = [];
  spec.slides.forEach((slide, index) => {
    slideList.push(record(0x03f3, u32s(slidePersist(index), 0, 2, slideId(index), 0)));
    slideList.push(record(0x0f9f, u32s(0)), record(0x0fa0, utf16(slide.title ?? '')));
    const body = slide.body ?? [];
    slideList.push(record(0x0f9f, u32s(1)), record(0x0fa0, utf16(body.map((paragraph) => paragraph.text).join('\r'))));
    if (body.length > 0) slideList.push(record(0x0fa1, bulletStyle(body)));
    if (slide.notes !== undefined) notesList.push(record(0x03f3, u32s(notesPersist(index), 0, 0, notesId(index), 0)));
  });
  const masterId = 0x80000000;
  const masterPersist = 2 + 2 * slideCount + 1;
  const documentChildren = [
    record(0x03e9, new ByteWriter().u32(5760).u32(4320).padTo(40).toBytes()),
    container(0x0ff0, [record(0x03f3, u32s(masterPersist, 0, 0, masterId, 0))], 1),
    container(0x0ff0, slideList, 0),
    container(0x0ff0, notesList, 2),
  ];
  if (spec.footer !== undefined) {
    documentChildren.push(
      container(0x0fd9, [record(0x0fda, new ByteWriter().u16(0).u16(0x20).toBytes()), record(0x0fba, utf16(spec.footer), 2)], 3),
    );
  }

  const stream = new ByteWriter();
  const offsets = new Map<number, number>();
  offsets.set(1, stream.length);
  stream.bytes(container(0x03e8, documentChildren));
  for (let index = slideCount - 1; index >= 0; index -= 1) {
    const slide = spec.slides[index] as SlideSpec;
    const shapes: Uint8Array[] = [];
    for (const box of slide.textBoxes ?? []) {
      const parts = [anchor(box.anchor)];
      if (box.placeholder !== undefined) parts.push(placeholderData(box.placeholder));
      parts.push(container(0xf00d, [record(0x0f9f, u32s(4)), record(0x0fa0, utf16(box.text))]));
      shapes.push(shape(parts));
    }
    if (slide.table !== undefined) shapes.push(tableGroup(slide.table));
    // Title and body placeholders, referring to the slide list's texts 0 and 1.
    shapes.push(shape([anchor([100, 100, 5000, 600]), placeholderData(13), container(0xf00d, [record(0x0f9e, u32s(0))])]));
    shapes.push(shape([anchor([800, 100, 5000, 4000]), placeholderData(14), container(0xf00d, [record(0x0f9e, u32s(1))])]));
    const slideAtom = new ByteWriter().u32(0).padTo(12).u32(masterId).u32(slide.notes !== undefined ? notesId(index) : 0).u16(0x01).u16(0).toBytes();
    const children = [record(0x03ef, slideAtom, 0, 2)];
    if (slide.hidden) children.push(record(0x03f9, new ByteWriter().u32(0).u32(0).u8(0).u8(0).u16(0x04).padTo(16).toBytes()));
    children.push(drawing(shapes));
    offsets.set(slidePersist(index), stream.length);
    stream.bytes(container(0x03ee, children));
    if (slide.notes !== undefined) {
      offsets.set(notesPersist(index), stream.length);
      const notesShape = shape([placeholderData(12), container(0xf00d, [record(0x0f9f, u32s(2)), record(0x0fa8, latin1(slide.notes))])]);
      stream.bytes(container(0x03f0, [record(0x03f1, u32s(slideId(index), 0)), drawing([notesShape])]));
    }
  }
  const masterShapes = [shape([anchor([100, 100, 5000, 600]), placeholderData(1), container(0xf00d, [record(0x0f9f, u32s(0)), record(0x0fa0, utf16('Click to edit Master title style'))])])];
  for (const box of spec.masterTextBoxes ?? []) {
    masterShapes.push(shape([anchor(box.anchor), container(0xf00d, [record(0x0f9f, u32s(4)), record(0x0fa0, utf16(box.text))])]));
  }
  offsets.set(masterPersist, stream.length);
  stream.bytes(container(0x03f8, [record(0x03ef, new ByteWriter().padTo(24).toBytes(), 0, 2), drawing(masterShapes)]));
  let sessionRef = 0;
  if (spec.cryptSession) {
    sessionRef = 2 + 2 * slideCount;
    offsets.set(sessionRef, stream.length);
    stream.bytes(container(0x2f14, [record(0x2f15, new Uint8Array(16))]));
  }

  const directoryAt = stream.length;
  const ids = [...offsets.keys()].sort((a, b) => a - b);
  const directory = new ByteWriter();
  for (const id of ids) directory.u32(id | (1 << 20)).u32(offsets.get(id) as number);
  stream.bytes(record(0x1772, directory.toBytes()));
  const editAt = stream.length;
  const edit = new ByteWriter()
    .u32(slideId(0))
    .u16(0)
    .u8(0)
    .u8(3)
    .u32(0)
    .u32(directoryAt)
    .u32(spec.badDocumentRef ? 999 : 1)
    .u32(ids.at(-1) ?? 1)
    .u16(1)
    .u16(0);
  if (spec.cryptSession) edit.u32(sessionRef);
  stream.bytes(record(0x0ff5, edit.toBytes()));

  const userName = 'tester';
  const currentUser = new ByteWriter()
    .u32(0x14)
    .u32(spec.encryptedToken ? 0xf3d1c4df : 0xe391c05f)
    .u32(editAt)
    .u16(userName.length)
    .u16(0x03f4)
    .u8(3)
    .u8(0)
    .u16(0)
    .latin1(userName)
    .u32(8)
    .toBytes();
  const streams = [{ name: 'PowerPoint Document', data: stream.toBytes() }];
  if (!spec.noCurrentUser) streams.push({ name: 'Current User', data: record(0x0ff6, currentUser) });
  return writeCfb([...streams, ...(spec.streams ?? [])]).bytes;
}
