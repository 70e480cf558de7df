/**
 * `npm run bench:report`: renders what the benches measured (bench/results/NAME.json, written by
 * bench/support/report.ts at the end of a run) into docs/benchmarks.md, between its results
 * markers, and the README's compact speed table (work | ours | best peer | ratio), between its
 * speed-table markers. No figure is typed by hand: run a bench, then this.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface Stats {
  min: number;
  median: number;
  p95: number;
  max: number;
}
interface RunInfo {
  date: string;
  command: string;
  commit: string;
  load: { start: string; end: string };
}
interface FigureRecord {
  work: string;
  ours: Stats;
  peer: { name: string; seconds: Stats };
  goal: number;
  ratio: number;
  met: boolean;
  run: RunInfo;
  history: { date: string; load: string; ours: number; peer: number; ratio: number; met: boolean }[];
}
interface ResultsFile {
  bench: string;
  figures: Record<string, FigureRecord>;
  runs: (RunInfo & { goals: { met: boolean; line: string }[]; log: string[] })[];
}

const root = resolve(import.meta.dirname, '..');
const resultsDir = resolve(root, 'bench', 'results');

const seconds = (s: number) => (s < 1 ? `${(s * 1000).toFixed(s < 0.01 ? 2 : 0)} ms` : `${s.toFixed(2)} s`);
const spread = (s: Stats) => `${seconds(s.min)} / ${seconds(s.median)} / ${seconds(s.max)}`;
const when = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';
const ratioCell = (f: { ratio: number; goal: number; met: boolean }) =>
  `${f.ratio.toFixed(2)}× (goal ≥ ${f.goal}×${f.met ? '' : ', **missed**'})`;

function readResults(): ResultsFile[] {
  if (!existsSync(resultsDir)) return [];
  return readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(resolve(resultsDir, f), 'utf8')) as ResultsFile);
}

/** The README's table: one row per figure, medians. */
function readmeTable(results: ResultsFile[]): string {
  const rows = results.flatMap((r) =>
    Object.values(r.figures).map(
      (f) =>
        `| ${f.work} | ${seconds(f.ours.median)} | ${f.peer.name} ${seconds(f.peer.seconds.median)} | ${ratioCell(f)} |`,
    ),
  );
  if (!rows.length) return 'No bench has written its results yet: run one, then `npm run bench:report`.';
  const runs = results.flatMap((r) => Object.values(r.figures).map((f) => f.run));
  const dates = runs.map((r) => when(r.date)).sort();
  const loads = runs.map((r) => Number(r.load.start.split(' ')[0]));
  const measured =
    `Measured ${dates[0]}${dates.length > 1 && dates.at(-1) !== dates[0] ? ` to ${dates.at(-1)}` : ''}, ` +
    `load average ${Math.min(...loads)}–${Math.max(...loads)} at the start (one minute); medians.`;
  return [measured, '', '| work | ours | best peer | ratio |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** docs/benchmarks.md's generated part: per bench, its figures with provenance, history and last runs. */
function provenance(results: ResultsFile[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(`### \`bench:${r.bench}\``, '');
    out.push(
      '| work | ours min / median / max | fastest peer min / median / max | ratio of medians | measured |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const f of Object.values(r.figures)) {
      const measured = `${when(f.run.date)}, load ${f.run.load.start} → ${f.run.load.end}, commit ${f.run.commit}`;
      out.push(
        `| ${f.work} | ${spread(f.ours)} | ${f.peer.name}: ${spread(f.peer.seconds)} | ${ratioCell(f)} | ${measured} |`,
      );
    }
    const earlier = Object.values(r.figures).filter((f) => f.history.length);
    if (earlier.length) {
      out.push('', 'Earlier values (newest first; medians, ours vs the peer, and the load at the start):', '');
      for (const f of earlier) {
        const past = f.history.map(
          (h) =>
            `${when(h.date)} (load ${h.load}): ${seconds(h.ours)} vs ${seconds(h.peer)}, ${h.ratio.toFixed(2)}×` +
            (h.met ? '' : ' missed'),
        );
        out.push(`- ${f.work}: ${past.join('; ')}`);
      }
    }
    for (const run of r.runs) {
      const missed = run.goals.filter((g) => !g.met).length;
      out.push(
        '',
        `<details><summary>${when(run.date)}: <code>${run.command}</code>, commit ${run.commit}, load ` +
          `${run.load.start} → ${run.load.end}; ${missed ? `${missed} goal(s) missed` : 'every goal met'}</summary>`,
        '',
        '```text',
        ...run.log,
        '```',
        '',
        '</details>',
      );
    }
    out.push('');
  }
  return out.join('\n');
}

/** Replaces the text between `start` and `end` in `file`. */
function between(file: string, start: string, end: string, text: string): void {
  const path = resolve(root, file);
  const markdown = readFileSync(path, 'utf8');
  const a = markdown.indexOf(start);
  const b = markdown.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file} needs the markers ${start} … ${end}`);
  writeFileSync(path, markdown.slice(0, a + start.length) + '\n' + text + '\n' + markdown.slice(b));
}

const results = readResults();
between(
  'README.md',
  '<!-- speed-table:start (generated by npm run bench:report) -->',
  '<!-- speed-table:end -->',
  readmeTable(results),
);
between(
  'docs/benchmarks.md',
  '<!-- results:start (generated by npm run bench:report) -->',
  '<!-- results:end -->',
  provenance(results),
);
console.log(`rendered ${results.length} results file(s) into README.md and docs/benchmarks.md`);
