/** `bayes test`'s JUnit XML and TAP 13 reports. */
import type { ExpectCase, FileCases } from '../protocol/expectCases.js';

/**
 * JUnit XML as CI servers read it (Jenkins, GitLab, GitHub's test reporters): one <testsuite>
 * per file, one <testcase> per expect (classname = the file, name = the line and the expect),
 * a <failure> for a failed expect, an <error> for one that gave no verdict; times in seconds.
 */
export function junitReport(files: FileCases[]): string {
  const all = files.flatMap((f) => f.cases);
  const count = (cases: ExpectCase[], s: ExpectCase['status']) => cases.filter((c) => c.status === s).length;
  const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);
  const total = files.reduce((s, f) => s + f.timeMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bayes test" tests="${all.length}" failures="${count(all, 'failed')}" errors="${count(all, 'error')}" time="${seconds(total)}">`,
  ];
  files.forEach((f, id) => {
    out.push(
      `  <testsuite name="${xml(f.file)}" id="${id}" tests="${f.cases.length}" failures="${count(f.cases, 'failed')}" ` +
        `errors="${count(f.cases, 'error')}" skipped="0" time="${seconds(f.timeMs)}">`,
    );
    for (const c of f.cases) {
      const head = `    <testcase classname="${xml(f.file)}" name="${xml(`line ${c.line}: ${c.name}`)}" file="${xml(f.file)}" line="${c.line}" time="${seconds(c.timeMs)}"`;
      if (c.status === 'passed') {
        out.push(head + '/>');
        continue;
      }
      const tag = c.status === 'failed' ? 'failure' : 'error';
      const type = c.status === 'failed' ? 'expect-failed' : 'not-evaluated';
      out.push(head + '>');
      out.push(`      <${tag} message="${xml(c.message ?? '')}" type="${type}">${xml(detail(f.file, c))}</${tag}>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  });
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

/** TAP version 13: one test point per expect, a YAML block with expected and actual under each failure. */
export function tapReport(files: FileCases[]): string {
  const all = files.flatMap((f) => f.cases.map((c) => ({ file: f.file, c })));
  const out = ['TAP version 13', `1..${all.length}`];
  all.forEach(({ file, c }, i) => {
    const ok = c.status === 'passed';
    out.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${tapText(`${file}:${c.line} ${c.name}`)}`);
    if (!ok) {
      out.push('  ---');
      out.push(`  message: ${JSON.stringify(c.message ?? '')}`);
      out.push(`  severity: ${c.status === 'failed' ? 'fail' : 'error'}`);
      if (c.expected) out.push(`  expected: ${JSON.stringify(c.expected)}`);
      if (c.actual !== undefined) out.push(`  actual: ${JSON.stringify(c.actual)}`);
      out.push(`  at: ${JSON.stringify(`${file}:${c.line}`)}`);
      out.push('  ...');
    }
  });
  return out.join('\n') + '\n';
}

function detail(file: string, c: ExpectCase): string {
  const lines = [`${file}:${c.line}: ${c.name}`];
  if (c.expected) lines.push(`expected: ${c.expected}`);
  if (c.actual !== undefined) lines.push(`actual: ${c.actual}`);
  if (c.message) lines.push(c.message);
  return lines.join('\n');
}

/** Text for an attribute or element: the five markup characters escaped, and no character XML 1.0 forbids. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;');
}

/** A TAP description: one line, no '#' (a directive). */
function tapText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/#/g, '\\#');
}
