// A queue worker inside your own service: `enqueue` lists a folder into a queue on a shared Redis, `startWorker`
// converts what the queue holds until it is closed. Here both run in one process and stop when the queue drains:
//   REDIS_URL=redis://127.0.0.1:6379 node examples/library/worker.mjs examples ./out
import { enqueue, readEnvironment, startWorker } from 'docmill';

const [source = new URL('..', import.meta.url).pathname, out = './out'] = process.argv.slice(2);
const environment = readEnvironment();
const queue = `example-${process.pid}`;
const { queued } = await enqueue({ source, queue, environment, out }).done;
console.log(`queued ${queued} documents into ${queue}`);
const worker = startWorker({ out, queue, environment, concurrency: 4 });
let finished = 0;
for await (const event of worker) {
  if (event.type !== 'document') continue;
  console.log(`${event.outcome.status.padEnd(9)} ${event.outcome.relativePath}`);
  if (++finished === queued) await worker.close();
}
console.log(`worker stopped after ${(await worker.done).counts.converted} conversions`);
