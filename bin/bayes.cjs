#!/usr/bin/env node
// The `bayes` command: the bundled CLI (built by `npm install` through the prepare script).
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.cjs');
if (!fs.existsSync(bundle)) {
  process.stderr.write('bayes: the CLI is not built yet; run `npm run build` in ' + path.dirname(__dirname) + '\n');
  process.exit(2);
}
require(bundle);
