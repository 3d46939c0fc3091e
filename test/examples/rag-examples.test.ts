/**
 * The loader examples in examples/rag/ run as docs/chunks.md shows them: chunks written by docmill become LangChain.js
 * Documents and LlamaIndex.TS TextNodes carrying their ids, offsets and provenance.
 *
 * Neither library is a dependency of docmill, so this test installs them (the versions examples/rag/package.json
 * names) into ~/.cache/docmill-test/rag, outside the repository, and runs copies of the examples there. That needs
 * the npm registry, so it runs only with DOCMILL_TEST_RAG=1; without it the test is skipped and says so.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/backend/upload-checks.js';
import { chunk } from '../../src/chunk/chunk.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../../examples/rag/', import.meta.url));
const REPORT = fileURLToPath(new URL('../../examples/report.pdf', import.meta.url));
const CACHE = join(homedir(), '.cache', 'docmill-test', 'rag');
const enabled = process.env.DOCMILL_TEST_RAG === '1';
if (!enabled) console.info('examples/rag: skipped; DOCMILL_TEST_RAG=1 installs @langchain/core and llamaindex outside the repository and runs the loader examples');

describe.skipIf(!enabled)('examples/rag (DOCMILL_TEST_RAG=1: installs @langchain/core and llamaindex outside the repository)', () => {
  it('loads docmill chunks into LangChain Documents and LlamaIndex TextNodes', async () => {
    await mkdir(CACHE, { recursive: true });
    await copyFile(join(EXAMPLES, 'package.json'), join(CACHE, 'package.json'));
    await run('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund'], { timeout: 600_000 });
    for (const name of ['read-chunks.mjs', 'langchain.mjs', 'llamaindex.mjs']) await copyFile(join(EXAMPLES, name), join(CACHE, name));

    const engine = new LocalParseEngine({ size: 1 });
    const dir = await makeTempDir();
    try {
      const bytes = new Uint8Array(await readFile(REPORT));
      const data = await engine.parseBytes(bytes, 'report.pdf', checkOptions({ parsers: [{ type: 'pdf', pages: true, blocks: true }] }));
      const chunks = chunk(data, { maxTokens: 120, source: { path: 'report.pdf', sha256: 'c'.repeat(64) } });
      const file = join(dir, 'report.pdf.chunks.jsonl');
      await writeFile(file, chunks.map((c) => `${JSON.stringify(c)}\n`).join(''));

      const script = `
        const { loadDocuments } = await import('./langchain.mjs');
        const { loadNodes } = await import('./llamaindex.mjs');
        const { MetadataMode } = await import('llamaindex');
        const documents = await loadDocuments(${JSON.stringify(file)});
        const nodes = await loadNodes(${JSON.stringify(file)});
        console.log(JSON.stringify({
          documents: documents.map((d) => ({ id: d.id, text: d.pageContent, page: d.metadata.pageStart, section: d.metadata.section, type: d.constructor.name })),
          nodes: nodes.map((n) => ({ id: n.id_, text: n.text, start: n.startCharIdx, end: n.endCharIdx, next: n.nextNode?.nodeId ?? null, embedded: n.getContent(MetadataMode.EMBED), type: n.constructor.name })),
        }));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: CACHE, timeout: 120_000 });
      const { documents, nodes } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        documents: Array<{ id: string; text: string; page: number; section: string; type: string }>;
        nodes: Array<{ id: string; text: string; start: number; end: number; next: string | null; embedded: string; type: string }>;
      };
      expect(documents.map((d) => d.id)).toEqual(chunks.map((c) => c.id));
      expect(documents.map((d) => d.text)).toEqual(chunks.map((c) => c.text));
      expect(documents.map((d) => d.page)).toEqual(chunks.map((c) => c.pageStart));
      expect(documents[0]).toMatchObject({ type: 'Document', section: chunks[0]!.headingPath.join(' > ') });
      // TextNode keeps a startCharIdx of 0 as undefined (it tests the value for truth).
      expect(nodes.map((n) => [n.id, n.start ?? 0, n.end])).toEqual(chunks.map((c) => [c.id, c.charStart, c.charEnd]));
      expect(nodes[0]).toMatchObject({ type: 'TextNode', next: chunks[1]!.id });
      // What is embedded carries the section, not the ids and boxes.
      expect(nodes[0]!.embedded).toContain('section:');
      expect(nodes[0]!.embedded).not.toContain('bbox');
    } finally {
      await engine.close();
      await removeTempDir(dir);
    }
  }, 900_000);
});
