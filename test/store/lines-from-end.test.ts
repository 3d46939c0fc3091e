/**
 * Reading a file's lines from its end (the manifest look back): every line once, last first, across chunk borders,
 * within a byte bound.
 */
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linesFromEnd } from '../../src/store/lines-from-end.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

async function linesOf(text: string, maxBytes: number, chunkBytes: number): Promise<string[]> {
  const path = join(dir, 'lines.jsonl');
  await writeFile(path, text);
  const handle = await open(path, 'r');
  try {
    const lines: string[] = [];
    for await (const line of linesFromEnd(handle, maxBytes, chunkBytes)) lines.push(line);
    return lines;
  } finally {
    await handle.close();
  }
}

describe('linesFromEnd', () => {
  it('gives every line last first, whole across chunk borders, multi-byte characters included', async () => {
    const lines = ['first', 'zweite Zeile: Größe', '', 'a longer third line that spans several chunks', 'Ω'];
    const text = `${lines.join('\n')}\n`;
    const expected = lines.filter((line) => line !== '').reverse();
    for (const chunk of [1, 3, 7, 1024]) expect(await linesOf(text, 1 << 20, chunk), `chunks of ${chunk}`).toEqual(expected);
  });

  it('gives a last line without its newline, and nothing for an empty file', async () => {
    expect(await linesOf('one\ntwo', 1 << 20, 4)).toEqual(['two', 'one']);
    expect(await linesOf('', 1 << 20, 4)).toEqual([]);
  });

  it('reads no further back than its bound, leaving out the line the bound cuts', async () => {
    // 'aaaa\n' 'bbbb\n' 'cccc\n': the last 7 bytes hold 'cccc' whole and the end of 'bbbb'; the last 11, the newline before 'bbbb' too.
    expect(await linesOf('aaaa\nbbbb\ncccc\n', 7, 2)).toEqual(['cccc']);
    expect(await linesOf('aaaa\nbbbb\ncccc\n', 11, 3)).toEqual(['cccc', 'bbbb']);
  });
});
