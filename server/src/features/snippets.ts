/** The snippet of each declaration form (snippets/bayes.json), offered by completion where a statement starts. */
import data from '../../../snippets/bayes.json';
export const SNIPPETS = data as Record<string, { prefix: string; body: string[]; description: string }>;
