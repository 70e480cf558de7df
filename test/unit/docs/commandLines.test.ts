/**
 * Every `bayes` command line shown in a ```sh block of README.md and docs/*.md runs as written
 * from the repository's folder (the built CLI, bin/bayes.cjs) and exits 0. `../shared/data`
 * stands for the shared data beside the repository (BAYES_SHARED when it lies elsewhere).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NO_SHARED, repoRoot, sharedData } from '../../support/shared.js';

interface CommandLine {
  file: string;
  line: number;
  text: string;
  args: string[];
}

/** The `bayes …` / `npx bayes …` lines of a Markdown file's ```sh blocks, comments cut off. */
export function commandLines(file: string): CommandLine[] {
  const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
  const out: CommandLine[] = [];
  let inShell = false;
  lines.forEach((raw, i) => {
    if (/^```(sh|bash|shell)\s*$/.test(raw.trim())) {
      inShell = true;
      return;
    }
    if (raw.trim().startsWith('```')) {
      inShell = false;
      return;
    }
    if (!inShell) return;
    const text = raw.replace(/\s+#.*$/, '').trim();
    const m = /^(?:npx\s+)?bayes\s+(.*)$/.exec(text);
    // Single quotes keep an argument whole, as the shell does ('smoke->lung').
    const args = (m?.[1]!.match(/'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^'(.*)'$/, '$1'));
    if (m) out.push({ file, line: i + 1, text, args });
  });
  return out;
}

const documents = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const cli = join(repoRoot, 'bin', 'bayes.cjs');
const built = existsSync(join(repoRoot, 'dist', 'cli.cjs'));
const sharedLocal = resolve(repoRoot, '..', 'shared', 'data');

describe('every documented command line runs as written', () => {
  it('finds them', () => {
    assert.ok(documents.flatMap(commandLines).length >= 10);
  });
  for (const command of documents.flatMap(commandLines)) {
    const needsShared = command.args.some((a) => a.includes('../shared/data'));
    const skip = !built
      ? 'dist/ is not built: run npm run build'
      : needsShared && !existsSync(sharedData)
        ? NO_SHARED
        : false;
    it(`${command.file}:${command.line}: ${command.text}`, { skip }, () => {
      const args = command.args.map((a) =>
        a.replaceAll(sharedLocal, sharedData).replaceAll('../shared/data', sharedData),
      );
      if (args[0] === 'lsp') {
        // A server: with its input closed it must start and stop without a usage error.
        const r = spawnSync(process.execPath, [cli, ...args], {
          cwd: repoRoot,
          input: '',
          encoding: 'utf8',
          timeout: 20000,
        });
        assert.notEqual(r.status, 2, r.stderr);
        assert.doesNotMatch(r.stderr, /unknown|usage/i);
        return;
      }
      const before = new Set(readdirSync(repoRoot));
      try {
        const r = spawnSync(process.execPath, [cli, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120000 });
        assert.equal(r.status, 0, `exit ${r.status}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`);
        assert.ok(
          r.stdout.length > 0 || args.some((a) => /\.(bif|bayes|xml|xmlbif|net|uai)$/.test(a)),
          'it printed nothing',
        );
      } finally {
        const left = readdirSync(repoRoot).filter((f) => !before.has(f));
        for (const f of left) rmSync(join(repoRoot, f), { force: true, recursive: true });
        // A documented line writes to stdout, a temporary folder or an ignored one: a reader who
        // runs it is left no untracked file in the repository (issue 27 item 8).
        const litter = left.filter((f) => !ignoredByGit(f));
        assert.deepEqual(litter, [], `it left ${litter.join(', ')} in the repository's folder`);
      }
    });
  }
});

/** Whether git ignores `name` in the repository's folder (true when there is no git to ask). */
function ignoredByGit(name: string): boolean {
  const r = spawnSync('git', ['check-ignore', '-q', '--no-index', name], { cwd: repoRoot });
  return r.error !== undefined || r.status === 0 || r.status === 128;
}
