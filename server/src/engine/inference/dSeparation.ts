/**
 * d-separation by the Bayes-ball / reachable algorithm (Shachter 1998; Koller & Friedman
 * Alg. 3.1): X ⫫ Y | Z in every distribution the DAG allows iff no active trail joins them.
 * A trail is walked as (node, direction) states — arrived "up" from a child or "down" from a
 * parent. A node not in Z passes the ball on as a chain or fork; a collider passes it back up
 * only when it or a descendant is in Z. When dependent, one active trail is returned.
 */
import { ancestralSet, type BayesianNetwork } from '../network.js';

export type IndependenceAnswer = { independent: true } | { independent: false; activePath: number[] };

const UP = 0,
  DOWN = 1;

export function dSeparated(
  net: BayesianNetwork,
  xs: readonly number[],
  ys: readonly number[],
  zs: readonly number[],
): IndependenceAnswer {
  const n = net.variables.length;
  const inZ = new Uint8Array(n),
    inY = new Uint8Array(n);
  for (const z of zs) inZ[z] = 1;
  for (const y of ys) inY[y] = 1;
  const children: number[][] = Array.from({ length: n }, () => []);
  for (const cpt of net.cpts) for (const p of cpt.parents) children[p]!.push(cpt.child);
  const zOrDescendantInZ = ancestralSet(net, zs); // nodes with themselves or a descendant in Z
  // predecessor state of each visited (node, direction); −2 = unvisited, −1 = a start.
  const from = new Int32Array(2 * n).fill(-2);
  const queue: number[] = [];
  for (const x of xs) {
    if (inZ[x]) continue; // an observed variable is independent of everything given itself
    from[2 * x + UP] = -1;
    queue.push(2 * x + UP);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const v = state >> 1,
      dir = state & 1;
    if (!inZ[v] && inY[v]) return { independent: false, activePath: trail(from, state) };
    const visit = (u: number, d: number) => {
      const s = 2 * u + d;
      if (from[s] === -2) {
        from[s] = state;
        queue.push(s);
      }
    };
    if (dir === UP && !inZ[v]) {
      for (const p of net.cpts[v]!.parents) visit(p, UP);
      for (const c of children[v]!) visit(c, DOWN);
    } else if (dir === DOWN) {
      if (!inZ[v]) for (const c of children[v]!) visit(c, DOWN);
      if (zOrDescendantInZ.has(v)) for (const p of net.cpts[v]!.parents) visit(p, UP);
    }
  }
  return { independent: true };
}

/** The nodes of the trail ending in `state`, from its start. */
function trail(from: Int32Array, state: number): number[] {
  const nodes: number[] = [];
  for (let s = state; s >= 0; s = from[s]!) if (nodes[nodes.length - 1] !== s >> 1) nodes.push(s >> 1);
  return nodes.reverse();
}
