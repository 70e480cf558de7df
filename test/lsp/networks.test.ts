/** bayes/networks and bayes/exportBif: the forest network read back from the exported BIF has the same tables. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import { readBif } from '../../server/src/model/bif.js';
import { readNetworkText } from '../../server/src/model/networkFormats.js';

test('the forest network is listed with its parents and exported as BIF with the same numbers', async () => {
  const path = join(repoRoot, 'examples', 'forest.bayes');
  const uri = fileUri(path);
  const lsp = await startLsp();
  try {
    await lsp.open(uri, readFileSync(path, 'utf8'));
    const nets = await lsp.request<{ name: string; variables: { name: string; parents: string[] }[] }[]>(
      'bayes/networks',
      { uri },
    );
    assert.deepEqual(
      nets.map((n) => n.name),
      ['Forest'],
    );
    assert.deepEqual(nets[0].variables.find((v) => v.name === 'ForestFire')?.parents, [
      'Storm',
      'Lightning',
      'Campfire',
    ]);
    const exported = await lsp.request<{ text: string }>('bayes/exportBif', { uri, network: 'Forest' });
    const read = readBif(exported.text);
    assert.ok('network' in read);
    const net = read.network;
    const v = (name: string) => net.variables.findIndex((x) => x.name === name);
    assert.deepEqual([...net.cpts[v('Storm')].table], [0.3, 0.7]);
    // Rows in BIF order, first parent slowest: (Storm, BusTourGroup) = tt, tf, ft, ff.
    assert.deepEqual(
      [...net.cpts[v('Campfire')].table].map((x) => Number(x.toFixed(12))),
      [0.4, 0.6, 0.1, 0.9, 0.8, 0.2, 0.2, 0.8],
    );
    assert.deepEqual(
      net.cpts[v('ForestFire')].parents.map((p) => net.variables[p].name),
      ['Storm', 'Lightning', 'Campfire'],
    );
    assert.deepEqual(await lsp.request('bayes/exportBif', { uri, network: 'Nope' }), {
      error: "there is no network 'Nope' in this file",
    });
    // the same request writes the other formats, chosen by the extension the user saved as
    for (const format of ['.xml', '.net', '.uai']) {
      const other = await lsp.request<{ text: string }>('bayes/exportBif', { uri, network: 'Forest', format });
      const back = readNetworkText(`forest${format}`, other.text);
      assert.ok('network' in back, format);
      back.network.cpts.forEach((cpt, i) => {
        assert.deepEqual([...cpt.table], [...net.cpts[i]!.table], `${format} table ${i}`);
      });
    }
    const xdsl = await lsp.request('bayes/exportBif', { uri, network: 'Forest', format: '.xdsl' });
    assert.deepEqual(xdsl, { error: "networks are not written as '.xdsl'" });
  } finally {
    await lsp.close();
  }
});
