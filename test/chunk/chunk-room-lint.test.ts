/**
 * The chunker is pure: eslint.config.js lets src/chunk import only the contract, errors and common, and no I/O.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function problems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}src/chunk/x.ts` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('src/chunk, enforced by lint', () => {
  it('refuses the store, the pipeline, the file system and the network', async () => {
    expect(await problems("import { outputKey } from '../store/layout.js';\nexport const x = outputKey;\n")).toEqual([expect.stringMatching(/chunker is pure/)]);
    expect(await problems("import { splitOutputs } from '../pipeline/split-outputs.js';\nexport const x = splitOutputs;\n")).toEqual([expect.stringMatching(/chunker is pure/)]);
    expect(await problems("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([expect.stringMatching(/no I\/O/)]);
    expect(await problems("import { request } from 'undici';\nexport const x = request;\n")).toEqual([expect.stringMatching(/no I\/O/)]);
  });

  it('allows the contract, errors and common', async () => {
    const code = [
      "import type { ParseData } from '../contract/response.js';",
      "import { DocmillError } from '../errors/docmill-error.js';",
      "import type { ChunkSettings } from '../common/processing-settings.js';",
      'export type X = [ParseData, ChunkSettings];',
      'export const y = DocmillError;',
      '',
    ].join('\n');
    expect(await problems(code)).toEqual([]);
  });
});
