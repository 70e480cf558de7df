/**
 * Tables of numbers: each cell shows a rounded value and keeps the exact one in `data-value`;
 * "Copy" puts the whole table (exact values, tab-separated, cells guarded by tsv.ts) on the clipboard.
 */
import { h } from './dom.js';
import { exact, prob } from './format.js';
import { post } from './host.js';
import { tsvText } from './tsv.js';

export interface Column<T> {
  title: string;
  value: (row: T) => number | string | undefined;
  /** Shown text; numbers default to 4 significant decimals. */
  format?: (value: number | string | undefined, row: T) => string;
  /** Extra class for the cell, e.g. a highlight of the chosen hypothesis. */
  className?: (row: T) => string | undefined;
}

export function dataTable<T>(label: string, columns: Column<T>[], rows: T[]): HTMLElement {
  const head = h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c.title)));
  const body = rows.map((row) => h('tr', {}, ...columns.map((c) => cell(c, row))));
  const table = h('table', { 'aria-label': label }, h('thead', {}, head), h('tbody', {}, ...body));
  const copy = copyButton(`Copy ${label}`, () => tsv(columns, rows));
  return h('div', { class: 'table-wrap' }, table, copy);
}

function cell<T>(c: Column<T>, row: T): HTMLElement {
  const v = c.value(row);
  const text = c.format ? c.format(v, row) : typeof v === 'number' ? defaultFormat(v) : (v ?? '—');
  return h(
    'td',
    {
      class: [typeof v === 'number' ? 'num' : '', c.className?.(row) ?? ''].join(' ').trim() || undefined,
      'data-value': exact(v),
    },
    text,
  );
}

function defaultFormat(v: number): string {
  return Number.isInteger(v) ? String(v) : prob(v);
}

function tsv<T>(columns: Column<T>[], rows: T[]): string {
  return tsvText([columns.map((c) => c.title), ...rows.map((row) => columns.map((c) => c.value(row)))]);
}

export function copyButton(label: string, text: () => string): HTMLElement {
  const b = h('vscode-button', { secondary: true, 'aria-label': label, title: label, class: 'copy' }, 'Copy');
  b.addEventListener('click', () => post({ type: 'copy', text: text() }));
  return b;
}
