/** Where a variable's `P(…)` table starts in a model's text: the fallback when a result carries no declaration range.
 * */
export function tableOffset(text: string, variable: string): { start: number; end: number } | undefined {
  const name = variable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // `P(Var)` or `P(Var | …)` declaring a table: not in a comment, a query or an expect line.
  const re = new RegExp(`^(?!\\s*(?://|query\\b|expect\\b))[^\\n]*?(P\\(\\s*${name})(?![A-Za-z0-9_])`, 'm');
  const m = re.exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length - m[1]!.length;
  return { start, end: start + m[1]!.length };
}
