/** `query posterior H`: see run/learning/hypothesisQueries.ts. */
import { type Handler } from '../handlerContext.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

export const posteriorHandler: Handler = (ctx) => answerHypothesisQuery(ctx, 'posterior');
