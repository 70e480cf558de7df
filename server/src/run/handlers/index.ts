/**
 * The table of statement handlers, one file per form. A form missing here is answered with an
 * error diagnostic saying so (see execute.ts) — never a made-up number.
 */
import { predictHandler } from './predict.js';
import { validateHandler } from './validate.js';
import type { HandlerTable } from '../handlerContext.js';
import { accuracyHandler } from './accuracy.js';
import { bicHandler } from './bic.js';
import { boundHandler } from './bound.js';
import { classifyHandler } from './classify.js';
import { estimateHandler } from './estimate.js';
import { evaluateHandler } from './evaluate.js';
import { gibbsHandler } from './gibbs.js';
import { independentHandler } from './independent.js';
import { intervalHandler } from './interval.js';
import { learnHandler } from './learn.js';
import { learnStructureHandler } from './learnStructure.js';
import { learningCurveHandler } from './learningCurve.js';
import { likelihoodHandler } from './likelihood.js';
import { mapHandler } from './map.js';
import { mdlHandler } from './mdl.js';
import { meanHandler } from './mean.js';
import { mlHandler } from './ml.js';
import { modeHandler } from './mode.js';
import { mpeHandler } from './mpe.js';
import { optimalHandler } from './optimal.js';
import { posteriorHandler } from './posterior.js';
import { probabilityHandler } from './probability.js';
import { sensitivityHandler } from './sensitivity.js';
import { sizeHandler } from './size.js';
import { policyHandler } from './policy.js';
import { euHandler } from './eu.js';
import { voiHandler } from './voi.js';
import { effectHandler } from './effect.js';
import { strengthHandler } from './strength.js';
import { continuousMomentHandler } from '../continuousQueries.js';

export const HANDLERS: HandlerTable = {
  learn: learnHandler,
  'learn structure': learnStructureHandler,
  'query accuracy': accuracyHandler,
  'query bic': bicHandler,
  'query bound': boundHandler,
  'query classify': classifyHandler,
  'query estimate': estimateHandler,
  'query evaluate': evaluateHandler,
  'query predict': predictHandler,
  'query validate': validateHandler,
  'query gibbs': gibbsHandler,
  'query independent': independentHandler,
  'query interval': intervalHandler,
  'query learning_curve': learningCurveHandler,
  'query likelihood': likelihoodHandler,
  'query map': mapHandler,
  'query mdl': mdlHandler,
  'query mean': meanHandler,
  'query moment': continuousMomentHandler,
  'query ml': mlHandler,
  'query mode': modeHandler,
  'query mpe': mpeHandler,
  'query optimal': optimalHandler,
  'query posterior': posteriorHandler,
  'query probability': probabilityHandler,
  'query sensitivity': sensitivityHandler,
  'query size': sizeHandler,
  'query policy': policyHandler,
  'query eu': euHandler,
  'query voi': voiHandler,
  'query effect': effectHandler,
  'query strength': strengthHandler,
};
