/**
 * `docmill run --images` end to end on the local engine: every picture of a document is written once as
 * `<file>.assets/<name>` beside its Markdown, which links to it at its place; the bytes are the document's own, on a
 * folder and on S3 (s3rver, with the pictures' content types); a copy of a document under another path gets its own
 * pictures and links; `--removed delete` takes the pictures with the document; an image bomb fails its document
 * with IMAGES_OVER_LIMIT, writing nothing of it; a PDF's pictures and vector figures are written by page and
 * order, a PDF image bomb fails the same way; `docmill parse --images --out` writes
 * the pictures beside the file it writes.
 */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, listFiles, runDocmill, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { DOCUMENTS, EXPECTED, png, sha256 } from '../engine/images/make-image-documents.js';
import { makeDocx } from '../engine/docx/make-docx.js';
import { figuresPdf, imageBombPdf } from '../engine/pdf/figure-pdfs.js';
import { fileOf, readManifest, writeTree, type TreeFile } from './pipeline-fixtures.js';

const BUILT = Object.entries(DOCUMENTS).map(([name, make]) => fileOf(`docs/${name}`, Buffer.from(make())));
const FILES: TreeFile[] = [
  ...BUILT,
  // The same bytes under another name (built once: a zip records the time it was made).
  fileOf('copies/again.docx', BUILT.find((file) => file.path === 'docs/report.docx')!.content),
];
const NAMES = ['image-1.png', 'image-2.gif', 'image-3.png'];

const workspace = useCliWorkspace({ queue: true });
let source: string;

beforeEach(async () => {
  source = join(workspace.home, 'in');
  await writeTree(source, FILES);
});

const env = (extra: Record<string, string> = {}) => docmillEnv({ home: workspace.home, redisUrl: SHARED_REDIS_URL, extra });

/** A Word document with one picture whose PNG header declares 60000 × 60000 pixels over a few bytes. */
function bombDocx(): Buffer {
  const bomb = png(20, 20, 1);
  new DataView(bomb.buffer, bomb.byteOffset).setUint32(16, 60_000);
  new DataView(bomb.buffer, bomb.byteOffset).setUint32(20, 60_000);
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return Buffer.from(
    makeDocx({
      body:
        '<w:p><w:r><w:t>Bomb</w:t></w:r></w:p><w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="1" cy="1"/><wp:docPr id="1" name="p" descr="bomb"/>' +
        '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
        '<pic:nvPicPr><pic:cNvPr id="0" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdB"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>',
      documentRels: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdB" Type="${R}/image" Target="media/bomb.png"/></Relationships>`,
      extra: { 'word/media/bomb.png': bomb },
    }),
  );
}

describe('docmill run --images', () => {
  it('writes each picture once beside the Markdown, linked at its place; copies relink; --removed delete takes them', async () => {
    const out = join(workspace.home, 'out');
    const args = ['run', source, '--out', out, '--queue', workspace.queue, '--concurrency', '2', '--images'];
    const result = await runDocmill(args, env(), 240_000);
    expect(result.code, result.stderr).toBe(0);

    const manifest = await readManifest(out);
    for (const file of FILES) {
      const markdown = await readFile(join(out, `${file.path}.md`), 'utf8');
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      const links = [...markdown.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]).filter((target) => !target?.startsWith('http'));
      expect(links, file.path).toEqual([...NAMES, NAMES[2]].map((image) => `${name}.assets/${image}`));
      const written = await Promise.all(NAMES.map((image) => readFile(join(out, `${file.path}.assets/${image}`))));
      expect(written.map((bytes) => sha256(bytes)), file.path).toEqual(EXPECTED);
      const line = manifest.find((entry) => entry.path === file.path);
      expect(line?.outputs, file.path).toEqual(expect.arrayContaining(NAMES.map((image) => `${file.path}.assets/${image}`)));
    }
    // One of the two identical Word documents was converted, the other's outputs copied and relinked to its own name.
    expect(manifest.filter((line) => line.path.endsWith('.docx')).map((line) => line.status).sort()).toEqual(['converted', 'skipped']);

    await rm(join(source, 'docs/deck.pptx'));
    const removed = await runDocmill([...args, '--removed', 'delete'], env(), 120_000);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await listFiles(out)).filter((path) => path.startsWith('docs/deck.pptx'))).toEqual([]);
    await expect(stat(join(out, 'docs/deck.pptx.assets'))).rejects.toThrow();
  }, 600_000);

  it('fails an image bomb with IMAGES_OVER_LIMIT naming it, writing nothing of it', async () => {
    await writeTree(source, [fileOf('bomb/bomb.docx', bombDocx())]);
    const out = join(workspace.home, 'out');
    const result = await runDocmill(['run', join(source, 'bomb'), '--out', out, '--queue', workspace.queue, '--images'], env(), 180_000);
    expect(result.code).not.toBe(0);
    const [line] = await readManifest(out);
    expect(line).toMatchObject({ path: 'bomb.docx', status: 'failed', error: { code: 'IMAGES_OVER_LIMIT' } });
    expect(line?.error?.message).toMatch(/^bomb\.docx: a picture of 60000 × 60000 pixels/);
    expect((await listFiles(out)).filter((path) => !path.startsWith('_docmill/'))).toEqual([]);
  }, 300_000);

  it('writes a PDF\'s pictures and vector figures by page and order, once each; a PDF image bomb fails alone', async () => {
    await writeTree(source, [fileOf('pdf/report.pdf', Buffer.from(figuresPdf())), fileOf('pdf/bomb.pdf', Buffer.from(imageBombPdf()))]);
    const out = join(workspace.home, 'out');
    const result = await runDocmill(['run', join(source, 'pdf'), '--out', out, '--queue', workspace.queue, '--images'], env(), 240_000);
    expect(result.code).not.toBe(0);
    const manifest = await readManifest(out);
    expect(manifest.find((line) => line.path === 'bomb.pdf')).toMatchObject({ status: 'failed', error: { code: 'IMAGES_OVER_LIMIT' } });
    expect(manifest.find((line) => line.path === 'report.pdf')).toMatchObject({ status: 'converted' });
    expect((await listFiles(out)).filter((path) => !path.startsWith('_docmill/')).sort()).toEqual([
      'report.pdf.assets/p1-figure-1.png',
      'report.pdf.assets/p1-figure-2.png',
      'report.pdf.assets/p2-figure-2.png',
      'report.pdf.json',
      'report.pdf.md',
    ]);
    expect(await readFile(join(out, 'report.pdf.json'), 'utf8')).not.toContain('base64');
    const markdown = await readFile(join(out, 'report.pdf.md'), 'utf8');
    expect(markdown).toContain('![Figure 1: Team photo](report.pdf.assets/p1-figure-2.png)');
    expect(markdown).toContain('![Figure 2: Revenue by region](report.pdf.assets/p2-figure-2.png)');
    expect(markdown.split('report.pdf.assets/p1-figure-1.png').length - 1).toBe(2);
  }, 300_000);

  it('--page-images --image-dpi writes each PDF page as page-<n>.png at that resolution, listed in its outputs', async () => {
    await writeTree(source, [fileOf('pdf/report.pdf', Buffer.from(figuresPdf()))]);
    const out = join(workspace.home, 'out');
    const args = ['run', join(source, 'pdf'), '--out', out, '--queue', workspace.queue, '--page-images', '--image-dpi', '100', '--pages'];
    const result = await runDocmill(args, env(), 240_000);
    expect(result.code, result.stderr).toBe(0);
    const pictures = ['p1-figure-1.png', 'p1-figure-2.png', 'p2-figure-2.png', 'page-1.png', 'page-2.png'].map((name) => `report.pdf.assets/${name}`);
    expect((await listFiles(out)).filter((path) => !path.startsWith('_docmill/')).sort()).toEqual([...pictures, 'report.pdf.json', 'report.pdf.md', 'report.pdf.pages.json']);
    const line = (await readManifest(out)).find((entry) => entry.path === 'report.pdf');
    expect(line?.outputs).toEqual(expect.arrayContaining(pictures));
    const page = await readFile(join(out, 'report.pdf.assets/page-2.png'));
    // Letter size at 100 dpi.
    expect([page.readUInt32BE(16), page.readUInt32BE(20)]).toEqual([850, 1100]);
    const pages = JSON.parse(await readFile(join(out, 'report.pdf.pages.json'), 'utf8')) as Array<{ image?: string }>;
    expect(pages.map((entry) => entry.image)).toEqual(['report.pdf.assets/page-1.png', 'report.pdf.assets/page-2.png']);
    const refused = await runDocmill(['run', join(source, 'pdf'), '--out', out, '--queue', workspace.queue, '--image-dpi', '100'], env(), 60_000);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('imageDpi is the resolution of the pictures');
  }, 300_000);

  it('parse --page-images --out writes the pages beside the Markdown, with no pages in the result unless asked', async () => {
    await writeTree(source, [fileOf('pdf/report.pdf', Buffer.from(figuresPdf()))]);
    const out = join(workspace.home, 'parsed', 'report.md');
    const result = await runDocmill(['parse', join(source, 'pdf/report.pdf'), '--out', out, '--page-images', '--json'], env(), 120_000);
    expect(result.code, result.stderr).toBe(0);
    const data = JSON.parse(await readFile(out, 'utf8')) as { pages?: unknown; markdown: string };
    expect(data.pages).toBeUndefined();
    expect(data.markdown).toContain('(report.assets/p2-figure-2.png)');
    const page = await readFile(join(workspace.home, 'parsed', 'report.assets', 'page-1.png'));
    // Letter size at the default 150 dpi.
    expect([page.readUInt32BE(16), page.readUInt32BE(20)]).toEqual([1275, 1650]);
  }, 300_000);

  it('parse --images --out writes the pictures beside the Markdown it writes', async () => {
    const out = join(workspace.home, 'parsed', 'report.md');
    const result = await runDocmill(['parse', join(source, 'docs/report.docx'), '--out', out, '--images'], env(), 120_000);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('![Figure 1: Revenue by region](report.assets/image-2.gif)');
    const written = await Promise.all(NAMES.map((image) => readFile(join(workspace.home, 'parsed', 'report.assets', image))));
    expect(written.map((bytes) => sha256(bytes))).toEqual(EXPECTED);
    const refused = await runDocmill(['parse', join(source, 'docs/report.docx'), '--images'], env(), 60_000);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--images writes the pictures beside the Markdown');
  }, 300_000);
});

describe('docmill run --images to S3', () => {
  let s3: S3rverHandle;
  beforeAll(async () => {
    s3 = await startS3rver(['out']);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('writes the pictures as objects beside the Markdown object, with their content types', async () => {
    const args = ['run', join(source, 'docs'), '--out', 's3://out/md', '--queue', workspace.queue, '--images', '--s3-endpoint', s3.endpoint, '--s3-region', 'us-east-1'];
    const result = await runDocmill(args, env({ AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }), 240_000);
    expect(result.code, result.stderr).toBe(0);
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: 'out', Prefix: 'md/report.docx.assets/' }));
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(NAMES.map((image) => `md/report.docx.assets/${image}`));
    const objects = await Promise.all(NAMES.map((image) => s3.client.send(new GetObjectCommand({ Bucket: 'out', Key: `md/report.docx.assets/${image}` }))));
    expect(objects.map((object) => object.ContentType)).toEqual(['image/png', 'image/gif', 'image/png']);
    const bytes = await Promise.all(objects.map(async (object) => new Uint8Array(await object.Body!.transformToByteArray())));
    expect(bytes.map(sha256)).toEqual(EXPECTED);
    const markdown = await (await s3.client.send(new GetObjectCommand({ Bucket: 'out', Key: 'md/report.docx.md' }))).Body!.transformToString();
    expect(markdown).toContain('![Team photo](report.docx.assets/image-1.png)');
  }, 300_000);
});
