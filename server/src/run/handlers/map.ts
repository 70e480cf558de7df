/** `query map H`: see run/learning/hypothesisQueries.ts. */
import { registerHandler } from './index.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

registerHandler('query map', (ctx) => answerHypothesisQuery(ctx, 'map'));
