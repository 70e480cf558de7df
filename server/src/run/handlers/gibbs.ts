/** `query gibbs V over H { seed, samples }`: classify with `samples` hypotheses (default 1) drawn by P(h|D), seed 1 unless given. */
import type * as A from '../../language/ast.js';
import { gibbsClassify } from '../../engine/hypotheses/gibbsAlgorithm.js';
import { argmax } from '../../engine/math/logMath.js';
import type { GibbsResultEntry } from '../../protocol/runResult.js';
import { type Handler } from '../handlerContext.js';
import { hypothesisPredictions } from '../learning/optimal.js';
import { numberOption, queryOf, seedOption } from '../learning/queryParts.js';

export const gibbsHandler: Handler = async (ctx) => {
  const query = queryOf<A.OptimalQuery>(ctx);
  const { hypotheses, values } = await hypothesisPredictions(ctx, query);
  const answer = gibbsClassify(
    hypotheses,
    values,
    seedOption(query.options),
    numberOption(query.options, 'samples') ?? 1,
  );
  // One draw answers with its prediction; many with the most frequent one.
  const value = answer.frequencies[argmax(answer.frequencies.map((f) => f.fraction))]!.value;
  const first = answer.draws[0]!;
  const headline =
    answer.draws.length === 1
      ? `${value} (drew ${first.hypothesis}, seed ${answer.seed})`
      : `${value} in ${answer.draws.length} draws (seed ${answer.seed})`;
  const result: GibbsResultEntry = {
    kind: 'gibbs',
    range: ctx.statement.range,
    source: ctx.source,
    ...answer,
    headline,
  };
  return { results: [result], diagnostics: [], value };
};
