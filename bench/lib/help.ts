/**
 * `--help` for a benchmark: prints the doc comment at the top of its file (what it runs, how, its flags) and exits.
 * Called first thing, before the benchmark parses its flags, so that `--help` is never an unknown option.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function exitWithHelpIfAsked(moduleUrl: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const source = readFileSync(fileURLToPath(moduleUrl), 'utf8');
  const header = /^\/\*\*([\s\S]*?)\*\//.exec(source.trimStart())?.[1] ?? '';
  process.stdout.write(`${header.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n').trim()}\n`);
  process.exit(0);
}
