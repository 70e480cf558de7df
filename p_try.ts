import { loadBif } from './test/support/networks.js';
import { JunctionTree } from './server/src/engine/junctionTree.js';
for (const n of process.argv.slice(2)) {
const net = loadBif(n)!; const jt = JunctionTree.compile(net) as any;
let work = 0; for (const c of jt.schedule) { work += jt.cliques[c].size + jt.cliques[jt.parentOf[c]].size; }
const deg = new Map<number, number>(); for (const c of jt.schedule) { deg.set(jt.parentOf[c], (deg.get(jt.parentOf[c]) ?? 0) + 1); }
const big = [...deg.entries()].map(([c, d]) => [jt.cliques[c].size, d]).sort((a, b) => b[0]! * b[1]! - a[0]! * a[1]!).slice(0, 5);
console.log(n, 'total', jt.totalSize, 'edge work (one direction)', work, 'biggest size×children', JSON.stringify(big));
}
