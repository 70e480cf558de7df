/** `query size H`: see run/learning/hypothesisQueries.ts. */
import { type Handler } from '../handlerContext.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

export const sizeHandler: Handler = (ctx) => answerHypothesisQuery(ctx, 'size');
