/** Minimum description length (Mitchell §6.6, Poole §10.2.4): L(h) + L(D|h) stacked per hypothesis. */
import type { MdlResult, TreeScoresResult } from '../../../server/src/protocol/runResult.js';
import { atLine, stackedBars } from '../charts.js';
import { h } from '../dom.js';
import { dataTable } from '../table.js';

export function mdlView(e: MdlResult): HTMLElement[] {
  const best = new Set(e.best);
  return [
    h('p', {}, `h_MDL = ${e.best.join(', ')} · code: ${e.code}`),
    stackedBars(
      `mdl-${atLine(e)}`,
      'Description length in bits: L(h) + L(D|h)',
      ['L(h)', 'L(D|h)'],
      e.rows.map((r) => ({ label: r.hypothesis, parts: [r.hypothesisBits, r.dataBits] })),
      best,
    ),
    dataTable(
      'description lengths',
      [
        { title: 'h', value: (r) => r.hypothesis, className: (r) => (best.has(r.hypothesis) ? 'chosen' : undefined) },
        { title: 'L(h)', value: (r) => r.hypothesisBits },
        { title: 'L(D|h)', value: (r) => r.dataBits },
        { title: 'total bits', value: (r) => r.totalBits },
      ],
      e.rows,
    ),
  ];
}

export function treeScoresView(e: TreeScoresResult): HTMLElement[] {
  return [
    h('p', {}, `${e.examples} examples · best by MDL: ${e.bestMdl} · best by BIC: ${e.bestBic}`),
    stackedBars(
      `trees-${atLine(e)}`,
      'Tree description length in bits: L(t) + L(E|t)',
      ['L(t)', 'L(E|t)'],
      e.trees.map((t) => ({ label: t.name, parts: [t.codeBits, t.bits] })),
      new Set([e.bestMdl]),
    ),
    dataTable(
      'tree scores',
      [
        { title: 'tree', value: (t) => t.name },
        { title: 'L(t)', value: (t) => t.codeBits },
        { title: 'MDL bits', value: (t) => t.mdlBits },
        { title: 'BIC bits', value: (t) => t.bicBits },
      ],
      e.trees,
    ),
  ];
}
