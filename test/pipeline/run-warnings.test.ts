/**
 * A document converted with a warning is found, not lost among the converted: `docmill run` on the local engine over
 * a folder holding a Word document cut short (an interrupted copy: read as far as it goes) beside intact files. The
 * summary counts it and names it with its warning, its manifest line and its state keep the warning, the log has
 * a line for it; a copy of the same bytes under another path carries it too, and the intact files carry none.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { corpusFile } from '../helpers/corpus.js';
import { cutInside } from '../helpers/cut-zip.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { fileOf, lastLineByPath, readManifest, writeTree } from './pipeline-fixtures.js';

const word = readFileSync(corpusFile('docx/word_tables.docx'));
// Cut inside the part after the document's body: the body is whole, the rest of the package is lost.
const CUT = Buffer.from(cutInside(word, 'word/styles.xml'));
const CUT_WARNING = /^The file was cut short \(a Word document \(\.docx\) whose zip directory, at its end, is missing\): its \d+ whole parts were read, and what came after them is missing\.$/;

let home: string;
let source: string;
let out: string;
let queue: string;

const workspace = useCliWorkspace({ queue: true });

beforeEach(async () => {
  ({ home, queue } = workspace);
  source = join(home, 'in');
  out = join(home, 'out');
  await writeTree(source, [
    fileOf('reports/tables.docx', CUT),
    fileOf('copies/tables.docx', CUT),
    fileOf('reports/intact.docx', word),
    fileOf('web/page.html', '<html><body><h1>Prices</h1><p>Unchanged this year.</p></body></html>'),
  ]);
});

function run() {
  return runDocmill(['run', source, '--out', out, '--queue', queue], docmillEnv({ home, redisUrl: SHARED_REDIS_URL }));
}

describe('docmill run: documents converted with a warning', () => {
  it('counts them in the summary, names them with their warning, and keeps the warning in the manifest and the state', async () => {
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    // One parse, one copy of the same bytes: the copy is a skip, the summary counts what was converted.
    expect(first.stderr).toMatch(/docmill: 3 converted \(1 with a warning\), 1 skipped, 0 failed/);
    expect(first.stderr).toMatch(/\n {2}with a warning: (reports|copies)\/tables\.docx \(The file was cut short \(a Word document \(\.docx\) whose zip directory.*…\): each one's warning is in its manifest line/);
    const logged = first.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; file?: string; warning?: string })
      .filter((line) => line.msg === 'converted with a warning');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.warning).toMatch(CUT_WARNING);

    // The text before the cut is there.
    const converted = lastLineByPath(await readManifest(out));
    const parsed = converted.get('reports/tables.docx')?.status === 'converted' ? 'reports/tables.docx' : 'copies/tables.docx';
    expect(await readFile(join(out, `${parsed}.md`), 'utf8')).toMatch(/\|/);
    for (const path of ['reports/tables.docx', 'copies/tables.docx']) {
      expect(converted.get(path)).toMatchObject({ warning: expect.stringMatching(CUT_WARNING) as unknown });
      const json = JSON.parse(await readFile(join(out, `${path}.json`), 'utf8')) as { warning?: string };
      expect(json.warning).toMatch(CUT_WARNING);
    }
    expect(converted.get('reports/intact.docx')).toMatchObject({ status: 'converted' });
    expect(converted.get('reports/intact.docx')).not.toHaveProperty('warning');
    expect(converted.get('web/page.html')).not.toHaveProperty('warning');

    // A rerun converts nothing and warns of nothing new; the lines it adds for the unchanged files still say which
    // outputs are partial.
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/docmill: 0 converted, 4 skipped, 0 failed/);
    expect(again.stderr).not.toContain('with a warning');
    const manifest = await readManifest(out);
    const reruns = manifest.slice(4);
    expect(reruns.filter((line) => line.warning !== undefined).map((line) => line.path).sort()).toEqual(['copies/tables.docx', 'reports/tables.docx']);
  }, 120_000);
});
