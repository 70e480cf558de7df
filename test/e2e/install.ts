/** `npm run test:e2e` step 1: install code-server into the cache before the timed test starts. */
import { ensureCodeServer } from './codeServer.js';

ensureCodeServer();
