/** `bayes predict NET --data rows.csv --target X`: P(X | each row's observed values), streamed. */
import { parseArgs } from 'node:util';
import { BatchPredictor, mostProbable } from '../engine/inference/batchPrediction.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { CaseLayout } from '../model/caseFile.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { NETWORK_FILE_USAGE } from './networkFile.js';
import { CASE_OPTIONS, CASE_USAGE, CaseFileError, openCases, RowWatch, streamCaseFile } from './caseInputs.js';
import { CancelledError } from '../engine/cancellation.js';
import { counted, interrupted } from './progress.js';
import { cliBudgets } from './limits.js';

const OPTIONS = { ...CASE_OPTIONS, csv: { type: 'boolean' } } as const;

const USAGE = `bayes predict NET|MODEL.bayes --data ROWS.csv --target X [--json|--csv] [options]

For each row of ROWS.csv (a header naming the columns), P(X | the row's observed values) by
exact inference (the junction tree, compiled once; rows with the same observed values share one
propagation), the most probable value of X (the first state on ties), and the row's
log-likelihood ln P(e): the natural log of the probability of the row's evidence — every column
but X that names a variable of the network; X's own column is not evidence (its value is shown
as "actual"), and columns naming no variable are ignored. '?' or an empty cell is unobserved.
A row whose evidence has probability 0 gets no prediction (null) and logLikelihood null.
Rows are read and written as they stream, so memory stays bounded.

On a terminal a progress line on standard error counts the rows (rate, share of the file read,
time left); Ctrl+C stops at the next row, exit 130, saying how many rows were predicted (the
output so far is incomplete: the JSON is not closed).

Options:
${CASE_USAGE}
  --json            {"network", "target", "states", "evidence": [columns], "ignored": [columns],
                     "rows": [{"row", "line", "probabilities": {STATE: p}, "predicted",
                     "logLikelihood", "actual"?}], "rowCount", "propagations"}
  --csv             one line per row: row,predicted,P(X=STATE)…,logLikelihood[,actual]
${NETWORK_FILE_USAGE}`;

export const predictCommand: CliCommand = {
  name: 'predict',
  summary: 'predict a variable for every row of a data file (posterior, most probable value, log-likelihood)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    if (values.json && values.csv) throw new UsageError('--json and --csv exclude each other');
    const setup = openCases('predict', values, positionals, io);
    if (typeof setup === 'number') return setup;
    const { net, target } = setup;
    const writer = new PredictionWriter(io, net, target, values.json ? 'json' : values.csv ? 'csv' : 'text');
    const watch = new RowWatch(io, 'predict');
    try {
      let rows = 0,
        impossible = 0,
        batch: BatchPredictor | undefined;
      const onRow = (evidence: Int32Array, truth: number, line: number) => {
        const answer = batch!.predict(evidence);
        if (!answer.probabilities) impossible++;
        writer.row(++rows, line, answer.probabilities, answer.logLikelihood, truth);
      };
      const onLayout = (layout: CaseLayout) => {
        batch = new BatchPredictor(net, target, layout.evidenceVariables, { maxEntries: cliBudgets.maxTotalEntries });
        writer.start(layout);
      };
      const { layout } = await streamCaseFile(setup.data, values, io, net, target, onRow, onLayout, watch);
      watch.finish();
      writer.end(rows, batch?.propagations ?? 0);
      if (layout.ignored.length)
        io.err(`bayes predict: ignored columns (no variable of ${net.name}): ${layout.ignored.join(', ')}\n`);
      if (impossible)
        io.err(`bayes predict: warning: ${impossible} rows have evidence of probability 0 (no prediction)\n`);
      return 0;
    } catch (e) {
      if (e instanceof CancelledError) {
        writer.flush();
        return interrupted(io, 'predict', `${counted(watch.rows)} rows; the output is incomplete`);
      }
      if (!(e instanceof CaseFileError)) throw e;
      writer.flush();
      watch.finish();
      io.err(e.message + '\n');
      return 1;
    } finally {
      watch.dispose();
    }
  },
};

/** Writes rows as they come, in batches of lines. */
class PredictionWriter {
  private buffer: string[] = [];
  private first = true;
  private withActual = false;
  private readonly states: string[];
  constructor(
    private readonly io: CliIO,
    private readonly net: BayesianNetwork,
    private readonly target: number,
    private readonly format: 'json' | 'csv' | 'text',
  ) {
    this.states = net.variables[target]!.states;
  }

  start(layout: CaseLayout): void {
    const X = this.net.variables[this.target]!.name;
    const withActual = (this.withActual = layout.targetColumn >= 0);
    if (this.format === 'json') {
      const head = {
        network: this.net.name,
        target: X,
        states: this.states,
        evidence: layout.evidenceVariables.map((v) => this.net.variables[v]!.name),
        ignored: layout.ignored,
      };
      this.buffer.push(JSON.stringify(head).slice(0, -1) + ',"rows":[');
    } else if (this.format === 'csv') {
      const cells = ['row', 'predicted', ...this.states.map((s) => `P(${X}=${s})`), 'logLikelihood'];
      this.buffer.push(cells.map(csvCell).join(',') + (withActual ? ',actual' : '') + '\n');
    } else {
      this.buffer.push(`${this.net.name}: P(${X} | row)\n`);
      this.buffer.push(
        ['row', 'predicted', ...this.states, 'ln P(e)', ...(withActual ? ['actual'] : [])].join('\t') + '\n',
      );
    }
  }

  row(row: number, line: number, p: Float64Array | null, logLikelihood: number, truth: number): void {
    const predicted = p ? this.states[mostProbable(p)]! : null;
    const actual = truth >= 0 ? this.states[truth]! : undefined;
    const ll = Number.isFinite(logLikelihood) ? logLikelihood : null;
    if (this.format === 'json') {
      const probabilities = p ? `{${this.states.map((s, i) => `${JSON.stringify(s)}:${p[i]}`).join(',')}}` : 'null';
      this.buffer.push(
        `${this.first ? '' : ','}\n{"row":${row},"line":${line},"probabilities":${probabilities},` +
          `"predicted":${JSON.stringify(predicted)},"logLikelihood":${ll}` +
          (actual !== undefined ? `,"actual":${JSON.stringify(actual)}` : '') +
          '}',
      );
      this.first = false;
    } else if (this.format === 'csv') {
      const ps = p ? Array.from(p, String) : this.states.map(() => '');
      const cells = [String(row), predicted ?? '', ...ps, ll === null ? '' : String(ll)];
      this.buffer.push(cells.map(csvCell).join(',') + (this.withActual ? `,${csvCell(actual ?? '')}` : '') + '\n');
    } else {
      const ps = p ? Array.from(p, (x) => x.toFixed(6)) : this.states.map(() => '—');
      const cells = [String(row), predicted ?? '(impossible)', ...ps, ll === null ? '−∞' : ll.toFixed(4)];
      this.buffer.push(cells.join('\t') + (this.withActual ? `\t${actual ?? '?'}` : '') + '\n');
    }
    if (this.buffer.length >= 512) this.flush();
  }

  end(rows: number, propagations: number): void {
    if (this.format === 'json') this.buffer.push(`\n],"rowCount":${rows},"propagations":${propagations}}\n`);
    else if (this.format === 'text') this.buffer.push(`${rows} rows, ${propagations} propagations\n`);
    this.flush();
  }

  flush(): void {
    if (this.buffer.length) this.io.out(this.buffer.join(''));
    this.buffer = [];
  }
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
