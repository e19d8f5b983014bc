// Starts parse-worker.ts when the app runs from its TypeScript sources (tsx, vitest): worker threads get no loader
// of their own, so this plain module registers tsx in the thread first. The built app bundles the worker instead.
import { workerData } from 'node:worker_threads';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

registerCommonJs();
register();
await import(workerData.entry);
