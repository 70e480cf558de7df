/**
 * Tables copied as tab-separated text, for pasting into a spreadsheet. Names come from the user's
 * files, so a cell a spreadsheet would run as a formula (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`)
 * is prefixed with `'` (OWASP's rule for CSV injection), and a cell holding a tab, a line break or
 * a double quote is quoted, so rows and columns stay where they are. Numbers stay numbers: `-0.25`
 * is not prefixed.
 */
export type TsvCell = string | number | undefined;

/** A cell that starts like a formula (or with a tab or carriage return, which some importers strip before one). */
const FORMULA = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function tsvCell(value: TsvCell): string {
  if (value === undefined) return '';
  const text = String(value);
  const guarded = typeof value !== 'number' && !NUMBER.test(text) && FORMULA.test(text) ? `'${text}` : text;
  return /[\t\r\n"]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** Rows as TSV: cells by `tsvCell`, one line per row, a final line break. */
export function tsvText(rows: TsvCell[][]): string {
  return rows.map((row) => row.map(tsvCell).join('\t')).join('\n') + '\n';
}
