/**
 * Another data set read as a trained naive Bayes model sees its training data: columns matched by
 * name (in any order), values matched by name (whatever their order of first appearance). What
 * does not match is reported, never guessed:
 *  - a value the training rows never show (outside the model's domain, or in it with no training
 *    row) is left out of that row's product, as Mitchell's Table 6.2 does with unknown words;
 *  - a model attribute without a column in the data is left out of every row's product;
 *  - a data column that is no attribute of the model is ignored;
 *  - a class value outside the model's classes is a class of its own, appended after them: the
 *    model cannot predict it, so each of its rows counts as an error.
 */
import { MISSING, type CategoricalDataset } from '../categoricalData.js';
import { EngineError } from '../engineError.js';
import { naiveBayesPosteriors, usesValue, type NaiveBayesModel } from './naiveBayes.js';

export interface UnseenValues {
  attribute: string;
  /** Each value never seen in training, with the number of rows that have it. */
  values: { value: string; rows: number }[];
}

export interface AlignedPredictions {
  /** Rows of the data set with a known class, in order. */
  rows: Int32Array;
  /** Class code of each such row in `classNames`. */
  labels: Int32Array;
  /** The model's predicted class code per row (MISSING when every class has probability 0). */
  predicted: Int32Array;
  /** P(v | row), rows × the model's classes. */
  posteriors: Float64Array;
  /** The model's classes, then the data's classes outside them (in order of first appearance). */
  classNames: string[];
  /** Class values no training row has (outside the model's classes or declared only), with their rows. */
  newClasses: { value: string; rows: number }[];
  unseen: UnseenValues[];
  /** How many rows have at least one value never seen in training. */
  unseenRows: number;
  /** Model attributes the data has no column for. */
  missingColumns: string[];
  /** Data columns that are no attribute of the model. */
  unusedColumns: string[];
}

/** Predicts every row of `data` that has a known class with `model`, matching by name. */
export function predictAligned(model: NaiveBayesModel, data: CategoricalDataset): AlignedPredictions {
  const t = data.attributes.findIndex((a) => a.name === model.target.name);
  if (t < 0) {
    const columns = data.attributes.map((a) => a.name).join(', ');
    throw new EngineError(`the data has no column '${model.target.name}', the class (columns: ${columns})`);
  }
  const classNames = [...model.target.values];
  const classCode = data.attributes[t]!.values.map((value) => {
    let v = classNames.indexOf(value);
    if (v < 0) {
      v = classNames.length;
      classNames.push(value);
    }
    return v;
  });
  const column = data.columns[t]!;
  const rows = Int32Array.from(Array.from(column.keys()).filter((r) => column[r] !== MISSING));
  const labels = Int32Array.from(rows, (r) => classCode[column[r]!]!);
  const newRows = new Map<string, number>();
  for (const v of labels) {
    // Outside the model's classes, or a declared class no training row has.
    if (v >= model.target.values.length || model.classCounts[v] === 0) {
      newRows.set(classNames[v]!, (newRows.get(classNames[v]!) ?? 0) + 1);
    }
  }

  const missingColumns: string[] = [];
  const unseen: UnseenValues[] = [];
  const touched = new Uint8Array(rows.length);
  const columns = model.attributes.map((attribute, a) => {
    const c = data.attributes.findIndex((d) => d.name === attribute.name);
    const out = new Int32Array(rows.length).fill(MISSING);
    if (c < 0) {
      missingColumns.push(attribute.name);
      return out;
    }
    const code = data.attributes[c]!.values.map((value) => {
      const x = attribute.values.indexOf(value);
      return usesValue(model, a, x) ? x : MISSING;
    });
    const counts = new Map<string, number>();
    rows.forEach((r, i) => {
      const x = data.columns[c]![r]!;
      if (x === MISSING) return;
      out[i] = code[x]!;
      if (code[x] !== MISSING) return;
      touched[i] = 1;
      const value = data.attributes[c]!.values[x]!;
      counts.set(value, (counts.get(value) ?? 0) + 1);
    });
    const values = [...counts].map(([value, n]) => ({ value, rows: n }));
    if (values.length > 0) unseen.push({ attribute: attribute.name, values });
    return out;
  });
  // The rows laid out as the model's training data: the class first, then its attributes in order.
  const aligned: CategoricalDataset = {
    attributes: [model.target, ...model.attributes],
    columns: [new Int32Array(rows.length), ...columns],
    rowCount: rows.length,
  };
  const view: NaiveBayesModel = { ...model, columnOf: model.attributes.map((_, a) => a + 1) };
  const all = Int32Array.from(rows.keys());
  const { predicted, posteriors } = naiveBayesPosteriors(view, aligned, all);
  const names = new Set(model.attributes.map((a) => a.name));
  const unusedColumns = data.attributes.filter((d, c) => c !== t && !names.has(d.name)).map((d) => d.name);
  return {
    rows,
    labels,
    predicted,
    posteriors,
    classNames,
    newClasses: [...newRows].map(([value, n]) => ({ value, rows: n })),
    unseen,
    unseenRows: touched.reduce((n, f) => n + f, 0),
    missingColumns,
    unusedColumns,
  };
}
