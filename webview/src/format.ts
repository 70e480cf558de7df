/** How numbers are shown. The full-precision value is kept in `data-value` for copying. */

/** Significant digits shown (the `bayes.precision` setting, sent with each run). */
let precision = 4;

export function setPrecision(digits: number | undefined): void {
  precision = digits !== undefined && Number.isInteger(digits) && digits >= 1 && digits <= 15 ? digits : 4;
}

/** A probability at `precision` significant digits: 0.00784 is 0.00784, not 0.0078. */
export function prob(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  if (p === 0 || p === 1) return String(p);
  if (Math.abs(p) < 1e-4) return p.toExponential(precision - 1).replace(/\.?0+e/, 'e');
  return String(Number(p.toPrecision(precision)));
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
