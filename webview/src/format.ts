/** How numbers are shown. The full-precision value is kept in `data-value` for copying. */
export function prob(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  if (p !== 0 && Math.abs(p) < 1e-4) return p.toExponential(3);
  return p.toFixed(4);
}

export function num(x: number | undefined, digits = 4): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e7)) return x.toExponential(digits - 1);
  return Number(x.toFixed(digits)).toString();
}

/** The value copied for a number: every digit JSON has. */
export function exact(x: number | string | undefined): string {
  return x === undefined ? '' : String(x);
}
