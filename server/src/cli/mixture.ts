/** `bayes mixture FILE.csv --k K`: a Gaussian mixture by EM (Mitchell §6.12). */
import { parseArgs } from 'node:util';
import { DataError, readNumericFile } from '../model/dataTable.js';
import { gaussianMixture, kMeansEm, type MixtureFit } from '../engine/mixtures/gaussianMixture.js';
import { EngineError } from '../engine/engineError.js';
import { numericColumns, type NumericData } from '../engine/dataset.js';
import { mixtureData } from '../run/learningResults.js';
import { orderByMeans } from '../run/mixtures.js';
import { startProgress, untilInterrupted } from './progress.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { integerOption, positiveOption } from './learningInputs.js';
import { commandLineReads, MAX_FILE_USAGE } from './workspace.js';
import { FileRefusedError, problemText } from '../language/environment.js';

const USAGE = `bayes mixture FILE.csv --k K [options]

Fits a mixture of K Gaussians by EM to numeric columns (a header of names, or none: x1, x2, …).

Options:
  --k K              number of components (required)
  --columns A,B      the columns to model (default: all)
  --sigma S          Mitchell's k means (§6.12.1): known shared σ, equal weights, means only
  --seed S           seed of the k-means++ start (default 1)
  --iterations N     iteration cap (default 100)
  --tolerance T      stop when the mean log-likelihood per point changes by less (default 1e-3, as scikit-learn;
                     1e-9 with --sigma, as a model's mixture with sigma)
  --reg R            added to covariance diagonals (default 1e-6, scikit-learn's reg_covar)
  --responsibilities include P(component | point) for every point in --json
  --json             weights, means, covariances, log-likelihood trace, BIC

Components are numbered by their means, ascending (the first column's), as a model's
\`mixture\` numbers them (mean1 is the smallest).
${MAX_FILE_USAGE}`;

const OPTIONS = {
  k: { type: 'string' },
  columns: { type: 'string' },
  sigma: { type: 'string' },
  seed: { type: 'string' },
  iterations: { type: 'string' },
  tolerance: { type: 'string' },
  reg: { type: 'string' },
  responsibilities: { type: 'boolean' },
  json: { type: 'boolean' },
  'max-file-mb': { type: 'string' },
} as const;

function selectColumns(data: NumericData, columns: string | undefined): NumericData {
  if (!columns) return data;
  return numericColumns(
    data,
    columns.split(',').map((c) => c.trim()),
    (name) => new UsageError(`--columns names '${name}', which is not a column (${data.names.join(', ')})`),
  );
}

export const mixtureCommand: CliCommand = {
  name: 'mixture',
  summary: "fit a mixture of Gaussians by EM (full covariances, or Mitchell's known-σ k means)",
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (positionals.length !== 1) throw new UsageError('give one data file');
    if (values.k === undefined) throw new UsageError('give the number of components with --k K');
    const k = integerOption('k', values.k, 1, 1);
    const common = {
      k,
      seed: integerOption('seed', values.seed, 1),
      maxIterations: integerOption('iterations', values.iterations, 100),
      // As in a model's `learn M by em`: scikit-learn's 1e-3 for full mixtures, 1e-9 for a known σ.
      tolerance: positiveOption('tolerance', values.tolerance, values.sigma === undefined ? 1e-3 : 1e-9, true),
    };
    const sigma = values.sigma === undefined ? undefined : positiveOption('sigma', values.sigma, 1);
    const regCovar = positiveOption('reg', values.reg, 1e-6, true);
    try {
      const data = selectColumns(await readNumericFile(commandLineReads(values), positionals[0]!), values.columns);
      const line = startProgress(io, 'EM iteration', { total: common.maxIterations });
      let reached = 'the first iteration';
      const withProgress = {
        ...common,
        onProgress: (i: number, ll: number) => {
          reached = `${i} of ${common.maxIterations} EM iterations (log-likelihood ${ll.toFixed(4)})`;
          line.update(i, `log-likelihood ${ll.toFixed(4)}`);
        },
      };
      // EM is a synchronous loop: Ctrl+C stops it (cli/progress.ts).
      const fitted = untilInterrupted(
        io,
        'mixture',
        () => `${reached}; no mixture printed`,
        () =>
          sigma === undefined
            ? gaussianMixture(data, { ...withProgress, regCovar })
            : kMeansEm(data, { ...withProgress, sigma }),
        () => [line],
      );
      if (typeof fitted === 'number') return fitted;
      // Numbered as the language numbers them (run/mixtures.ts): by the first column's mean, ascending.
      const fit = orderByMeans(fitted);
      const { responsibilities, ...rest } = mixtureData(data.names, fit);
      if (values.json)
        io.out(JSON.stringify(values.responsibilities ? { ...rest, responsibilities } : rest, null, 2) + '\n');
      else io.out(summary(fit, data));
      return 0;
    } catch (e) {
      const code = (e as { code?: string }).code;
      const refused = e instanceof FileRefusedError || code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES';
      if (e instanceof DataError || e instanceof EngineError || refused) {
        const reason =
          e instanceof FileRefusedError ? `cannot read it: ${problemText(e.problem)}` : (e as Error).message;
        io.err(`bayes mixture: ${positionals[0]}: ${reason}\n`);
        return 1;
      }
      throw e;
    }
  },
};

function summary(fit: MixtureFit, data: NumericData): string {
  const d = fit.dims;
  const lines = [
    `${fit.k} components over ${data.names.join(', ')} from ${data.rows} points: log-likelihood ${fit.logLikelihood.toFixed(4)}, BIC ${fit.bic.toFixed(4)}, ${fit.iterations} iterations${fit.converged ? ' (converged)' : ''}`,
  ];
  for (let j = 0; j < fit.k; j++) {
    const mean = [...fit.means.subarray(j * d, (j + 1) * d)].map((m) => m.toFixed(4)).join(', ');
    const variances = Array.from({ length: d }, (_, a) => fit.covariances[j * d * d + a * d + a]!.toFixed(4)).join(
      ', ',
    );
    lines.push(`  ${j + 1}: weight ${fit.weights[j]!.toFixed(4)}  mean (${mean})  variances (${variances})`);
  }
  return lines.join('\n') + '\n';
}
