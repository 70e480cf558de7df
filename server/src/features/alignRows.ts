/**
 * Column alignment for the formatter: the rows of each CPT (`true,  false: 0.1`) and of each
 * inline data table line up, cell by cell, as in the textbook's tables. A table is aligned only
 * when each of its rows (and a data header) stands alone on its line, apart from a trailing
 * comment, which is kept after the aligned row.
 */
import type * as A from '../language/index.js';

/** New contents (without indentation) of the lines whose rows were aligned. */
export function alignedRows(file: A.BayesFile, lines: string[]): Map<number, string> {
  const out = new Map<number, string>();
  const visit = (statements: A.Statement[]) => {
    for (const s of statements) {
      if (s.kind === 'network') visit(s.statements);
      else if (s.kind === 'table' && s.rows.length > 0)
        align(
          lines,
          s.rows.map((r) => ({ node: r, cells: rowCells(lines, r) })),
          out,
        );
      else if (s.kind === 'data' && !s.source && s.header.length > 0) {
        const header = {
          node: spanOf(s.header),
          cells: s.header.map((h, i) => slice(lines, h) + (i < s.header.length - 1 ? ',' : '')),
        };
        align(
          lines,
          [
            header,
            ...s.rows.map((r) => {
              // `cells` of a scanned row builds its nodes on each read: once a row, not once a cell
              // (a row of 10,000 cells took 25 s, of 100,000 hung the server).
              const cells = r.cells;
              return {
                node: r as A.NodeBase,
                cells: cells.map((c, i) => slice(lines, c) + (i < cells.length - 1 ? ',' : '')),
              };
            }),
          ],
          out,
        );
      }
    }
  };
  visit(file.statements);
  return out;
}

interface Line {
  node: A.NodeBase;
  cells: string[];
}

/** A row as cells: each key (`true,` … `true:`), then each probability (`{ pos: 0.98,` … `neg: 0.02 }`). */
function rowCells(lines: string[], row: A.Row): string[] {
  const keys = row.keys.map((k, i) => slice(lines, k) + (i < row.keys.length - 1 ? ',' : ':'));
  // `male: Normal(mean: -90, Height: 0.95, variance: 36)`: the regression as written, one cell.
  if (row.normal) return [...keys, slice(lines, row.normal)];
  const values = row.entries.map((e, i) => {
    const last = i === row.entries.length - 1;
    const text = (e.state ? `${slice(lines, e.state)}: ` : '') + slice(lines, e.value) + (last ? '' : ',');
    if (row.form === 'map') return (i === 0 ? '{ ' : '') + text + (last ? ' }' : '');
    if (row.form === 'list') return (i === 0 ? '[' : '') + text + (last ? ']' : '');
    return text;
  });
  return [...keys, ...values];
}

function align(lines: string[], rows: Line[], out: Map<number, string>): void {
  const lineNumbers = rows.map((r) => r.node.range.start.line);
  const alone =
    rows.every((r) => r.node.range.end.line === r.node.range.start.line) && new Set(lineNumbers).size === rows.length;
  const comments = rows.map((r) => trailing(lines, r.node));
  if (!alone || comments.some((c) => c === undefined) || rows.some((r) => leading(lines, r.node))) return;
  const widths: number[] = [];
  for (const r of rows) r.cells.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const texts = rows.map((r) => r.cells.map((c, i) => (i < r.cells.length - 1 ? c.padEnd(widths[i]) : c)).join(' '));
  const commented = comments.some((c) => c !== '');
  // A loop, not Math.max(...): a data block of 1,000,000 rows overflowed the stack with its arguments.
  const width = texts.reduce((w, t) => Math.max(w, t.length), 0);
  rows.forEach((_, i) =>
    out.set(lineNumbers[i], comments[i] ? `${texts[i].padEnd(commented ? width : 0)} ${comments[i]}` : texts[i]),
  );
}

function slice(lines: string[], node: A.NodeBase): string {
  const { start, end } = node.range;
  if (start.line !== end.line) return lines[start.line].slice(start.character);
  return lines[start.line].slice(start.character, end.character);
}

/** Whether code other than whitespace precedes the node on its line. */
function leading(lines: string[], node: A.NodeBase): boolean {
  return lines[node.range.start.line].slice(0, node.range.start.character).trim() !== '';
}

/** The comment after the node on its line ('' when none), or undefined when other code follows. */
function trailing(lines: string[], node: A.NodeBase): string | undefined {
  const rest = lines[node.range.end.line].slice(node.range.end.character).trim();
  return rest === '' || rest.startsWith('//') ? rest : undefined;
}

function spanOf(names: A.Name[]): A.NodeBase {
  return { kind: 'span', range: { start: names[0].range.start, end: names[names.length - 1].range.end } };
}
