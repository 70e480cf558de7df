/**
 * `learn M …`: a network's tables from data (counting, EM, gradient ascent) or a mixture's
 * components by EM — what the learnt thing is decides which. Classifiers train themselves
 * from their declared data; hypothesis spaces are conditioned with `observe`/`given`.
 */
import type { LearnStmt } from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import { type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { learnNetwork } from '../learnNetwork.js';
import { learnMixture } from '../mixtures.js';

async function learn(ctx: HandlerContext): Promise<HandlerOutput> {
  const s = ctx.statement as LearnStmt;
  const kind = ctx.symbols.globals.get(s.model.text)?.kind;
  if (kind === 'mixture') return learnMixture(ctx, s);
  if (kind === 'network' || kind === 'import') return learnNetwork(ctx, s);
  const why =
    kind === 'classifier'
      ? 'a classifier is trained from the data it is declared on whenever it is used'
      : 'learn takes a network (its tables from data) or a mixture (by em)';
  throw new CompileError(`'${s.model.text}': ${why}`, s.model.range);
}

export const learnHandler: Handler = learn;
