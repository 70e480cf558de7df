/**
 * Generated inputs of many classes (issue #28): a CSV whose class column has `classes` values,
 * class i on (i % 7) + 1 rows, each with a feature value of its own (so unsmoothed naive Bayes
 * predicts every row right and the confusion matrix is diagonal, support on the diagonal), and a
 * one-variable BIF network of `states` states with a CSV of its values. Written, not stored: a
 * 50,000-class file is 1 MB.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const rowsOfClass = (i: number): number => (i % 7) + 1;

/** A folder with classes.csv (Label, Feature) and a model m.bayes evaluating and classifying with it. */
export function manyClassesModel(
  classes: number,
  queries = 'query evaluate NB on D\n',
): { dir: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-classes-'));
  const lines = ['Label,Feature'];
  for (let i = 0; i < classes; i++) for (let r = 0; r < rowsOfClass(i); r++) lines.push(`c${i},f${i}`);
  writeFileSync(join(dir, 'classes.csv'), lines.join('\n') + '\n');
  const model = join(dir, 'm.bayes');
  writeFileSync(model, `data D from "classes.csv"\nclassifier NB = naive_bayes(D, target: Label)\n${queries}`);
  return { dir, model };
}

/** The SHOWN_CLASSES-style choice made by brute force: the `limit` classes with most rows, ties to the lower index. */
export function expectedShown(classes: number, limit: number): number[] {
  return Array.from({ length: classes }, (_, i) => i)
    .sort((a, b) => rowsOfClass(b) - rowsOfClass(a) || a - b)
    .slice(0, limit)
    .sort((a, b) => a - b);
}

/** A network of one variable X of `states` states (uniform) and a CSV of X: state i on (i % 7) + 1 rows. */
export function manyStatesNetwork(dir: string, states: number): { bif: string; csv: string } {
  const names = Array.from({ length: states }, (_, i) => `s${i}`);
  const bif = join(dir, 'many.bif');
  writeFileSync(
    bif,
    `network many {}\nvariable X { type discrete [ ${states} ] { ${names.join(', ')} }; }\n` +
      `probability ( X ) { table ${names.map(() => (1 / states).toPrecision(17)).join(', ')}; }\n`,
  );
  const csv = join(dir, 'x.csv');
  const rows = ['X'];
  names.forEach((n, i) => {
    for (let r = 0; r < rowsOfClass(i); r++) rows.push(n);
  });
  writeFileSync(csv, rows.join('\n') + '\n');
  return { bif, csv };
}
