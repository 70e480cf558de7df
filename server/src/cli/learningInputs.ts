/** Reading a network and a data file for the learning commands, with errors as one line each. */
import { extname } from 'node:path';
import { writeBif } from '../model/bif.js';
import { networkFormatOf } from '../model/networkFormats.js';
import { writeBayesNetwork } from '../model/bayesWriter.js';
import { DataError, readDiscreteFile, sniffLayout } from '../model/dataTable.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { Prior } from '../engine/estimators/cptLearning.js';
import { UsageError } from './command.js';
import type { Files } from '../language/environment.js';
import { FileRefusedError, problemText } from '../language/environment.js';
import { writeOutputFileSync } from '../workspace/files.js';

/** A problem with the user's input files: printed as `bayes: message`, exit 1. */
export class InputError extends Error {}

/** Reads a data table: with `variables`, headerless files take them as columns (records.dat form). */
export async function readDataFile(
  files: Files,
  file: string,
  variables?: BayesianNetwork['variables'],
): Promise<CategoricalDataset> {
  try {
    const layout = variables ? await sniffLayout(files, file, variables) : {};
    return await readDiscreteFile(files, file, layout);
  } catch (e) {
    if (e instanceof DataError) throw new InputError(`${file}: ${e.message}`);
    if (e instanceof FileRefusedError) throw new InputError(`cannot read ${file}: ${problemText(e.problem)}`);
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
    throw e;
  }
}

export { integerOption, positiveOption } from './numberOptions.js';

/** `none`, `laplace`, `dirichlet=α`, `m=M` (m-estimate, eq 6.22) or `bdeu=ESS`. */
export function parsePrior(text: string | undefined): Prior {
  if (text === undefined || text === 'none') return { kind: 'none' };
  if (text === 'laplace') return { kind: 'dirichlet', alpha: 1 };
  const m = /^(dirichlet|m|bdeu)=(.+)$/.exec(text);
  const x = m ? Number(m[2]) : NaN;
  if (!m || !(x > 0))
    throw new UsageError(
      `--prior must be none, laplace, dirichlet=α, m=M or bdeu=ESS with a positive number, not '${text}'`,
    );
  return m[1] === 'dirichlet'
    ? { kind: 'dirichlet', alpha: x }
    : m[1] === 'm'
      ? { kind: 'mEstimate', m: x }
      : { kind: 'bdeu', ess: x };
}

/** Writes a learned network as .bayes, XMLBIF, Hugin NET or UAI (by extension), else BIF. */
export function writeNetworkFile(file: string, net: BayesianNetwork): void {
  try {
    const write = extname(file) === '.bayes' ? writeBayesNetwork : (networkFormatOf(file)?.write ?? writeBif);
    writeOutputFileSync(file, write(net));
  } catch (e) {
    throw new InputError(`cannot write ${file}: ${(e as Error).message}`);
  }
}
