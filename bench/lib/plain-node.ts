/**
 * TypeScript modules turned into plain JavaScript for `node` to run without a loader. A benchmark child that
 * measures its own memory must not carry tsx (about 45 MB more resident set, and an esbuild service process):
 * these files are transpiled one by one (types erased, nothing bundled; their relative `.js` imports must name
 * files transpiled alongside) into `dir`, which is marked as ES modules.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import ts from 'typescript';

export async function transpileForNode(sources: readonly string[], dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  const outputs: string[] = [];
  for (const source of sources) {
    const { outputText } = ts.transpileModule(await readFile(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: source,
    });
    const output = join(dir, basename(source).replace(/\.ts$/, '.js'));
    await writeFile(output, outputText);
    outputs.push(output);
  }
  return outputs;
}
