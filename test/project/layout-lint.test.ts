/**
 * The layout's import rules live in eslint.config.js, so a wrong import fails `npm test`. These check that the
 * rules bite: each snippet is linted as if it were a file in that room.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}${filePath}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the layout, enforced by lint', () => {
  it('refuses the engine importing the remote client, the network or the CLI', async () => {
    expect(await problems('src/engine/pdf/x.ts', "import { RemoteParseApi } from '../../client/remote-parse-api.js';\nexport const x = RemoteParseApi;\n")).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*engine depends only on/),
    ]);
    expect(await problems('src/engine/x.ts', "import { request } from 'undici';\nexport const x = request;\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*no network/),
    ]);
  });

  it('refuses sources importing the store, and anything but the CLI importing the composition root', async () => {
    expect(await problems('src/sources/x.ts', "import { TEMP_MARKER } from '../store/layout.js';\nexport const x = TEMP_MARKER;\n")).toHaveLength(1);
    expect(await problems('src/pipeline/x.ts', "import { run } from '../app/run.js';\nexport const x = run;\n")).toEqual([
      expect.stringMatching(/only the entry points \(the CLI, src\/index.ts, workers\/\) import the composition root/),
    ]);
  });

  it('refuses reading process.env outside src/config', async () => {
    expect(await problems('src/queue/x.ts', 'export const url = process.env.REDIS_URL;\n')).toEqual([
      expect.stringMatching(/^no-restricted-syntax: read the environment in src\/config/),
    ]);
    expect(await problems('src/config/x.ts', 'export const url = process.env.REDIS_URL;\n')).toEqual([]);
  });

  it('lets the layers import what they may', async () => {
    expect(await problems('src/engine/x.ts', "import type { UploadSource } from '../backend/upload-source.js';\nexport type X = UploadSource;\n")).toEqual([]);
    expect(await problems('src/cli/x.ts', "import { run } from '../app/run.js';\nexport const x = run;\n")).toEqual([]);
  });
});
