// A folder into Markdown, with progress events and a summary:
//   node examples/library/run.mjs examples ./out
// Uses REDIS_URL when set (readEnvironment), else an embedded redis-server kept under the output folder.
import { describeGroups, readEnvironment, run } from 'docmill';

const [source = new URL('..', import.meta.url).pathname, out = './out'] = process.argv.slice(2);
const handle = run({ source, out, environment: readEnvironment() });
handle.on('document', ({ outcome }) => console.log(`${outcome.status.padEnd(9)} ${outcome.relativePath}`));
handle.on('not-converted', ({ path, reason }) => console.log(`${'not'.padEnd(9)} ${path} (${reason})`));
process.once('SIGINT', () => void handle.close());
const summary = await handle.done;
console.log(`${summary.counts.converted} converted, ${summary.counts.skipped} skipped, ${summary.counts.failed} failed`);
if (summary.failures.length > 0) console.log(`failed: ${describeGroups(summary.failures)}`);
