/** `query mdl H`: see run/learning/hypothesisQueries.ts. */
import { type Handler } from '../handlerContext.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

export const mdlHandler: Handler = (ctx) => answerHypothesisQuery(ctx, 'mdl');
