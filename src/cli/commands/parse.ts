/**
 * `docmill parse <file>`: its flags; the work (parse-action.ts) loads on use, the local engine's threads first.
 */
import type { Command } from 'commander';
import { withEngineHeadStart } from '../../app/engine-head-start.js';
import type { CliContext } from '../context.js';
import { addParseFlags } from '../parse-flags.js';
import type { ParseCommandFlags } from './parse-action.js';

export function registerParseCommand(program: Command, context: CliContext): void {
  const command = program
    .command('parse')
    .description('parse one document and print its Markdown')
    .argument('<file>', 'the document to parse; - reads it from standard input')
    .option('--api-url <url>', 'parse API base URL (env DOCMILL_API_URL, or FIRECRAWL_API_URL)')
    .option('--api-key <key>', 'parse API key (env DOCMILL_API_KEY, or FIRECRAWL_API_KEY)')
    .option('--json', 'print the whole `data` object as JSON instead of the Markdown')
    .option('--out <file>', 'write the output to this file instead of stdout')
    .option('--name <file>', 'with -: the document\'s file name, whose extension gives its type (default: told from its bytes)')
    .option('--max-attempts <n>', 'attempts per request in all, 1..5 (the contract allows at most 5)', '5');
  addParseFlags(command);
  command.action(async (file: string, flags: ParseCommandFlags) => {
    // The engine's threads load while the action does: one file's parse is mostly their start.
    const action = async () => (await import('./parse-action.js')).parseCommand(file, flags, context);
    context.setExitCode(await withEngineHeadStart(flags, context.env, action, { file }));
  });
}
