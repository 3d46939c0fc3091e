// Starts a TypeScript worker-thread entry from the sources (tests, `npx tsx`), where Node cannot load .ts itself.
// The compiled build never uses this file: its threads are plain .js.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
