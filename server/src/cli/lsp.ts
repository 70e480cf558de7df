import { format } from 'node:util';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { FrameGuard } from './framing.js';
import { startServer } from '../server.js';
import { UsageError, type CliCommand } from './command.js';

export const lspCommand: CliCommand = {
  name: 'lsp',
  summary: 'run the language server for other editors (--stdio)',
  usage: 'bayes lsp --stdio\n\nSpeaks the Language Server Protocol on standard input and output.',
  async run(args: string[]): Promise<number> {
    if (!args.includes('--stdio')) throw new UsageError('the only transport is --stdio');
    // Standard output is the protocol's channel: anything logged goes to standard error.
    for (const level of ['log', 'info', 'debug', 'warn'] as const)
      console[level] = (...args: unknown[]) => void process.stderr.write(format(...args) + '\n');
    // Frames are checked before vscode-jsonrpc reads them (cli/framing.ts); the server exits when the input ends.
    const input = process.stdin.pipe(new FrameGuard((line) => process.stderr.write(line + '\n')));
    startServer(createConnection(ProposedFeatures.all, input, process.stdout));
    await new Promise<never>(() => {}); // serve until the client exits the process
    return 0;
  },
};
