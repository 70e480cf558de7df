// `npm run examples`: every example model through the CLI, with no flags. The one input the
// examples do not ship, the 20 Newsgroups archive (15 MB), is copied into examples/data/ from
// ../shared/data when it is there (CI lays it out so); without it, that example says where it goes.
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const archive = join(root, 'examples', 'data', '20news-bydate.tar.gz');
const shared = process.env.BAYES_SHARED ?? join(root, '..', 'shared');
const source = join(shared, 'data', '20news-bydate.tar.gz');
if (!existsSync(archive) && existsSync(source)) {
  copyFileSync(source, archive);
  console.log(`examples: copied ${source} to examples/data/`);
}
const models = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.bayes'))
  .sort()
  .map((f) => join('examples', f));
const run = spawnSync(process.execPath, [join(root, 'bin', 'bayes.cjs'), 'run', ...models], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
