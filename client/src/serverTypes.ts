/** Answers of the server's custom requests (`bayes/lastResult`, `bayes/networks`), as the client reads them. */
import type { RunResult } from '../../server/src/protocol/runResult.js';

export interface LastResult { state: 'done' | 'failed'; cached: boolean; current: boolean; result: RunResult }
export interface NetworkSummary { name: string; source: 'file' | 'import'; variables: { name: string; states: string[]; parents: string[] }[] }
