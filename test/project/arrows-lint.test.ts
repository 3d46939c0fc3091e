/**
 * The arrows between the rooms, as `npm run lint` enforces them (eslint.config.js): each check lints a file that
 * breaks one arrow, linted as if it were in that room, and expects that rule to fire; then the imports the room may
 * make, expected to pass. A cycle needs both of its files on disk: they are written to a temporary folder under
 * src/ and removed after.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}${filePath}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

const CLI_ZONE = /^import-x\/no-restricted-paths: .*the CLI imports only the app layer/;

describe('the CLI imports only the app layer', () => {
  it('refuses config, contract, engine, server, metrics, queue and the library entry, however imported', async () => {
    const imports = [
      ['src/cli/x.ts', "import { integerSetting } from '../config/numbers.js';\nexport const x = integerSetting;\n"],
      ['src/cli/x.ts', "import type { ParseData } from '../contract/response.js';\nexport type X = ParseData;\n"],
      ['src/cli/commands/x.ts', "import { startParseServer } from '../../server/parse-server.js';\nexport const x = startParseServer;\n"],
      ['src/cli/commands/x.ts', "import { DocmillMetrics } from '../../metrics/metrics.js';\nexport const x = DocmillMetrics;\n"],
      ['src/cli/commands/x.ts', "import { parseJobDataSchema } from '../../queue/job-data.js';\nexport const x = parseJobDataSchema;\n"],
      ['src/cli/x.ts', "import { run } from '../index.js';\nexport const x = run;\n"],
      // A dynamic import is an import too.
      ['src/cli/commands/x.ts', "export const load = () => import('../../engine/local-engine.js');\n"],
    ] as const;
    for (const [file, code] of imports) expect(await problems(file, code), code).toEqual([expect.stringMatching(CLI_ZONE)]);
  });

  it('refuses packages other than commander', async () => {
    expect(await problems('src/cli/x.ts', "import type { Job } from 'bullmq';\nexport type X = Job;\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*the CLI imports only the app layer/),
    ]);
    expect(await problems('src/cli/x.ts', "import type { Logger } from 'pino';\nexport type X = Logger;\n")).toHaveLength(1);
  });

  it('lets it import the app layer, its own files, node: modules and commander', async () => {
    const code = [
      "import { readFile } from 'node:fs/promises';",
      "import { Command } from 'commander';",
      "import { run } from '../../app/run.js';",
      "import { EXIT } from '../exit-codes.js';",
      'export const x = [readFile, Command, run, EXIT];',
      '',
    ].join('\n');
    expect(await problems('src/cli/commands/x.ts', code)).toEqual([]);
  });
});

describe('the engine imports nothing from pipeline, queue, server, app or CLI', () => {
  it('refuses each of them, at any depth of the engine', async () => {
    const imports = [
      ['src/engine/x.ts', "import { DocumentProcessor } from '../pipeline/document-processor.js';\nexport const x = DocumentProcessor;\n"],
      ['src/engine/slides/pptx/x.ts', "import { parseJobDataSchema } from '../../../queue/job-data.js';\nexport const x = parseJobDataSchema;\n"],
      ['src/engine/pdf/x.ts', "import { startParseServer } from '../../server/parse-server.js';\nexport const x = startParseServer;\n"],
      ['src/engine/x.ts', "import { run } from '../app/run.js';\nexport const x = run;\n"],
      ['src/engine/x.ts', "import { main } from '../cli/main.js';\nexport const x = main;\n"],
    ] as const;
    for (const [file, code] of imports) {
      // The CLI is also refused by the rule every room has (nothing imports the CLI).
      expect(await problems(file, code), code).toContainEqual(expect.stringMatching(/^import-x\/no-restricted-paths: .*the engine depends only on/));
    }
  });

  it('lets it import backend, contract and errors', async () => {
    const code = [
      "import type { UploadSource } from '../../backend/upload-source.js';",
      "import { MAX_FILE_BYTES } from '../../contract/limits.js';",
      "import { DocmillError } from '../../errors/docmill-error.js';",
      'export type X = UploadSource;',
      'export const y = [MAX_FILE_BYTES, DocmillError];',
      '',
    ].join('\n');
    expect(await problems('src/engine/pdf/x.ts', code)).toEqual([]);
  });
});

describe('config imports no LLM code', () => {
  it('refuses src/llm, and lets config import errors', async () => {
    expect(await problems('src/config/x.ts', "import type { LlmConfig } from '../llm/openai-json-extractor.js';\nexport type X = LlmConfig;\n")).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*config .* imports no LLM/),
    ]);
    expect(await problems('src/config/x.ts', "import { DocmillError } from '../errors/docmill-error.js';\nexport const x = DocmillError;\n")).toEqual([]);
  });
});

describe('no import cycle', () => {
  it('refuses two modules that import each other', async () => {
    const dir = await mkdtemp(join(REPO, 'src', 'lint-probe-'));
    try {
      await writeFile(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n");
      await writeFile(join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = (): number => (typeof a === 'function' ? 1 : 0);\n");
      const [result] = await eslint.lintFiles([join(dir, 'a.ts')]);
      expect((result?.messages ?? []).map((message) => message.ruleId)).toEqual(['import-x/no-cycle']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
