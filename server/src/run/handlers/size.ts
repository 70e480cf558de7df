/** `query size H`: see run/learning/hypothesisQueries.ts. */
import { registerHandler } from './index.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

registerHandler('query size', (ctx) => answerHypothesisQuery(ctx, 'size'));
