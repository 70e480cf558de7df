/** `query map H`: see run/learning/hypothesisQueries.ts. */
import { type Handler } from '../handlerContext.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

export const mapHandler: Handler = (ctx) => answerHypothesisQuery(ctx, 'map');
