/** `query ml H`: see run/learning/hypothesisQueries.ts. */
import { registerHandler } from './index.js';
import { answerHypothesisQuery } from '../learning/hypothesisQueries.js';

registerHandler('query ml', (ctx) => answerHypothesisQuery(ctx, 'ml'));
