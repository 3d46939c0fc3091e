import { describe, expect, it } from 'vitest';
import { clearStage, newStageBoard, readStage, writeStage } from '../../src/engine/stage-board.js';

describe('stage board', () => {
  it('gives the pool the stage a thread wrote last, and nothing once cleared for the next document', () => {
    const board = newStageBoard();
    expect(readStage(board)).toBeUndefined();
    writeStage(board, 'identifying the file');
    writeStage(board, 'reading slide 12');
    expect(readStage(board)).toBe('reading slide 12');
    clearStage(board);
    expect(readStage(board)).toBeUndefined();
  });

  it('cuts a stage longer than the board holds instead of failing', () => {
    const board = newStageBoard();
    writeStage(board, 'x'.repeat(500));
    expect(readStage(board)?.length).toBeLessThan(500);
    expect(readStage(board)?.startsWith('xxx')).toBe(true);
  });
});
