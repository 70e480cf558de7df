/** The client's contributions (commands, settings, snippets), without an editor. */
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../server/src/workspace/settings.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/shared.js';

test('every contributed command is registered by the client and every palette entry names one', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const source = readFileSync(join(repoRoot, 'client', 'src', 'commands.ts'), 'utf8');
  const registered = [...source.matchAll(/register\('([\w.]+)'/g)].map((m) => m[1]).sort();
  const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, registered);
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'Bayes');
  for (const entry of pkg.contributes.menus.commandPalette)
    assert.ok(contributed.includes(entry.command) && entry.when);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  const settings = Object.keys(pkg.contributes.configuration.properties).sort();
  assert.deepEqual(settings, [
    'bayes.archive.maxEntries',
    'bayes.archive.maxExpandedMb',
    'bayes.dataRoots',
    'bayes.maxFileMb',
    'bayes.precision',
    'bayes.run.memoryMb',
    'bayes.run.timeoutSeconds',
    'bayes.runOnSave',
    'bayes.trace.server',
  ]);
  // The contributed defaults are the server's.
  const defaults = (name: string) => pkg.contributes.configuration.properties[`bayes.${name}`].default;
  assert.equal(defaults('precision'), DEFAULT_SETTINGS.precision);
  assert.equal(defaults('maxFileMb'), DEFAULT_SETTINGS.maxFileMb);
  assert.equal(defaults('archive.maxExpandedMb'), DEFAULT_SETTINGS.archive.maxExpandedMb);
  assert.equal(defaults('archive.maxEntries'), DEFAULT_SETTINGS.archive.maxEntries);
  assert.equal(defaults('run.memoryMb'), DEFAULT_SETTINGS.run.memoryMb);
});

test('the walkthrough, keybinding and icon point at what the package holds', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const commands = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  const [walkthrough] = pkg.contributes.walkthroughs;
  assert.ok(walkthrough.steps.length >= 3);
  for (const step of walkthrough.steps) {
    const media = step.media.markdown ?? step.media.image;
    assert.ok(existsSync(join(repoRoot, media)), `${step.id}: ${media}`);
    for (const m of step.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(m[1]), m[1]);
    for (const e of step.completionEvents) assert.ok(commands.has(e.replace('onCommand:', '')), e);
  }
  for (const k of pkg.contributes.keybindings) assert.ok(commands.has(k.command));
  const icon = readFileSync(join(repoRoot, pkg.icon));
  assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128]);
  assert.ok(!JSON.stringify(pkg).includes('example.invalid'));
});

test('the .vsix ships every bundle the extension starts, and not the CLI', () => {
  const allowed = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n');
  const esbuild = readFileSync(join(repoRoot, 'esbuild.mjs'), 'utf8');
  // The server starts these as worker threads (run/runJob.ts, features/marginalsRequest.ts, workspace/networkReads.ts).
  for (const bundle of [
    'client.cjs',
    'server.cjs',
    'worker.cjs',
    'marginalsWorker.cjs',
    'networkReadWorker.cjs',
    'webview.js',
  ]) {
    assert.ok(esbuild.includes(`dist/${bundle}`), `esbuild builds dist/${bundle}`);
    assert.ok(allowed.includes(`!dist/${bundle}`), `.vscodeignore lets dist/${bundle} in`);
  }
  assert.ok(!allowed.some((l) => /dist\/(cli[.-]|bootstrapWorker)/.test(l)), 'the CLI bundles stay out of the .vsix');
});
