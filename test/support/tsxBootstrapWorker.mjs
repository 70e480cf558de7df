// The bootstrap worker from source, for tests: tsx's loader registered inside the worker thread
// (the bundled CLI runs dist/bootstrapWorker.cjs instead).
import { register } from 'tsx/esm/api';

register();
await import('../../server/src/cli/bootstrapWorker.ts');
