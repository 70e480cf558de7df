/** `query ml H`: see run/learning/hypothesisQueries.ts. */
import { type Handler } from '../handlerContext.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

export const mlHandler: Handler = (ctx) => answerHypothesisQuery(ctx, 'ml');
