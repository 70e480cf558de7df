import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../server.js';
import { UsageError, type CliCommand } from './command.js';

export const lspCommand: CliCommand = {
  name: 'lsp',
  summary: 'run the language server for other editors (--stdio)',
  usage: 'bayes lsp --stdio\n\nSpeaks the Language Server Protocol on standard input and output.',
  async run(args: string[]): Promise<number> {
    if (!args.includes('--stdio')) throw new UsageError('the only transport is --stdio');
    // createConnection reads `--stdio` from process.argv.
    startServer(createConnection(ProposedFeatures.all));
    await new Promise<never>(() => {}); // serve until the client exits the process
    return 0;
  },
};
