/** `query posterior H`: see run/learning/hypothesisQueries.ts. */
import { registerHandler } from './index.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

registerHandler('query posterior', (ctx) => answerHypothesisQuery(ctx, 'posterior'));
