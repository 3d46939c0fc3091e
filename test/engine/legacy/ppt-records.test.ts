/**
 * PowerPoint record walks on hostile streams: nesting deeper than the limit is not entered, a stream of many tiny
 * records runs out of budget with DOCUMENT_TOO_COMPLEX, and a record longer than its parent ends the list.
 */
import { describe, expect, it } from 'vitest';
import { childrenOf, descendants, RecordBudget, recordAt } from '../../../src/engine/legacy/ppt-records.js';
import { ByteWriter } from './make-cfb.js';

function header(writer: ByteWriter, type: number, length: number, container: boolean): ByteWriter {
  return writer.u16(container ? 0x0f : 0).u16(type).u32(length);
}

describe('record walks', () => {
  it('stops entering containers nested deeper than 64 levels', () => {
    const depth = 200;
    const writer = new ByteWriter();
    for (let level = 0; level < depth; level += 1) header(writer, 0x1000 + level, (depth - level - 1) * 8, true);
    const stream = writer.toBytes();
    const root = recordAt(stream, 0);
    expect(root).not.toBeNull();
    const found = descendants(stream, root as NonNullable<typeof root>, new RecordBudget(10_000));
    expect(found).toHaveLength(64);
  });

  it('refuses a stream of more records than the budget', () => {
    const count = 5_000;
    const writer = header(new ByteWriter(), 0x03e8, count * 8, true);
    for (let index = 0; index < count; index += 1) header(writer, 0x0001, 0, false);
    const stream = writer.toBytes();
    const root = recordAt(stream, 0) as NonNullable<ReturnType<typeof recordAt>>;
    expect(childrenOf(stream, root, new RecordBudget(count))).toHaveLength(count);
    expect(() => childrenOf(stream, root, new RecordBudget(1_000))).toThrow(expect.objectContaining({ apiCode: 'DOCUMENT_TOO_COMPLEX' }));
  });

  it('ends a container\'s children at a record that does not fit in it', () => {
    const writer = header(new ByteWriter(), 0x03e8, 24, true);
    header(writer, 0x0001, 0, false);
    header(writer, 0x0002, 500, false).padTo(32);
    const stream = writer.toBytes();
    const root = recordAt(stream, 0) as NonNullable<ReturnType<typeof recordAt>>;
    expect(childrenOf(stream, root, new RecordBudget(100)).map((record) => record.type)).toEqual([0x0001]);
  });
});
