/** A fake panel host for the browser tests: the page's requests answered by the real language server. */
import type { DecisionsReply, DiagnosisReply, MarginalsReply } from '../../../server/src/protocol/messages.js';
import { RUN_RESULT_VERSION, type WebviewMessage } from '../../../server/src/protocol/webviewMessages.js';
import type { LspSession } from '../../support/lspClient.js';
import type { PanelPage } from './harness.js';

/**
 * Relays the page's `marginals`, `decisions` and `diagnosis` requests to the language server, as
 * client/src/resultsPanel.ts does.
 */
export function relay(p: PanelPage, lsp: LspSession, uri: string): { stop(): void } {
  let seen = 0;
  let running = true;
  void (async () => {
    while (running) {
      const posted = await p.posted().catch(() => [] as WebviewMessage[]);
      for (const m of posted.slice(seen)) {
        if (m.type === 'marginals') {
          const { type: _, id, ...ev } = m;
          const reply = await lsp.request<MarginalsReply>('bayes/marginals', { uri, ...ev });
          await p
            .post({ type: 'marginals', version: RUN_RESULT_VERSION, id, network: m.network, reply })
            .catch(() => 0);
        } else if (m.type === 'diagnosis') {
          const { type: _, id, ...params } = m;
          const reply = await lsp.request<DiagnosisReply>('bayes/diagnosis', { uri, ...params });
          await p
            .post({ type: 'diagnosis', version: RUN_RESULT_VERSION, id, network: m.network, reply })
            .catch(() => 0);
        } else if (m.type === 'decisions') {
          const reply = await lsp.request<DecisionsReply>('bayes/decisions', {
            uri,
            network: m.network,
            evidence: m.evidence,
          });
          await p
            .post({ type: 'decisions', version: RUN_RESULT_VERSION, id: m.id, network: m.network, reply })
            .catch(() => 0);
        }
      }
      seen = posted.length;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { stop: () => void (running = false) };
}
