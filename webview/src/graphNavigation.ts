/**
 * Moving the keyboard focus between graph nodes along the layout: an arrow key goes to the nearest
 * node in its direction. Pure geometry (no DOM), so the rule is the same wherever it is used.
 */
export type Direction = 'left' | 'right' | 'up' | 'down';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const AXIS: Record<Direction, [number, number]> = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

/**
 * The node whose centre lies in the direction from `from`'s centre (within 60° either side of it),
 * nearest by distance along the direction plus twice the distance across it (so a node straight
 * ahead beats a closer one off to the side); undefined at the edge of the graph.
 */
export function nearestNode(boxes: ReadonlyMap<string, Box>, from: string, direction: Direction): string | undefined {
  const a = boxes.get(from);
  if (!a) return undefined;
  const [dx, dy] = AXIS[direction];
  const ax = a.x + a.w / 2,
    ay = a.y + a.h / 2;
  let best: string | undefined,
    bestScore = Infinity;
  for (const [id, b] of boxes) {
    if (id === from) continue;
    const vx = b.x + b.w / 2 - ax,
      vy = b.y + b.h / 2 - ay;
    const along = vx * dx + vy * dy;
    const across = Math.abs(vx * dy - vy * dx);
    // tan 60° ≈ 1.732: outside that cone the node is more "beside" than "ahead".
    if (along <= 0 || across > along * 1.732) continue;
    const score = along + 2 * across;
    if (score < bestScore || (score === bestScore && id < best!)) {
      best = id;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The node a search for `text` goes to on Enter: the exact name first (as written, then ignoring
 * case), then the shortest name that starts with it, then the shortest that contains it.
 */
export function searchTarget(ids: readonly string[], text: string): string | undefined {
  const q = text.trim();
  if (!q) return undefined;
  const lower = q.toLowerCase();
  const shortest = (xs: string[]) => xs.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  return (
    ids.find((id) => id === q) ??
    ids.find((id) => id.toLowerCase() === lower) ??
    shortest(ids.filter((id) => id.toLowerCase().startsWith(lower))) ??
    shortest(ids.filter((id) => id.toLowerCase().includes(lower)))
  );
}
