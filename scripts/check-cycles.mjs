// Import cycles among our own modules, type-only imports included (ESLint's import-x/no-cycle
// skips those): prints each strongly connected component of the relative-import graph and
// exits 1 when there is one. Part of `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOTS = ['server/src', 'client/src', 'webview/src'];
const IMPORT = /^(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;

const files = ROOTS.flatMap((root) => walk(root));
const known = new Set(files);
const edges = new Map(files.map((f) => [f, importsOf(f)]));
const cycles = stronglyConnected().filter((c) => c.length > 1);
for (const c of cycles) console.error(`import cycle: ${c.join(' → ')}`);
if (cycles.length) process.exit(1);
console.log(`no import cycles among ${files.length} modules`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.name.endsWith('.ts') ? [normalize(p)] : [];
  });
}

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1].replace(/\.js$/, '.ts'))));
  return targets.filter((t) => known.has(t));
}

/** Tarjan's algorithm, iterative (no recursion limit on deep chains). */
function stronglyConnected() {
  const index = new Map(),
    low = new Map(),
    onStack = new Set(),
    stack = [],
    out = [];
  let counter = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const next = edges.get(v)[i];
      if (next !== undefined) {
        frame[1]++;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) low.set(v, Math.min(low.get(v), index.get(next)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        out.push(component.reverse());
      }
    }
  }
  return out;
}
