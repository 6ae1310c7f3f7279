// What a run prints and writes: a line per file, the total, the failures, and the gates.

import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { FileResult, ServerHang, Summary } from './runner.js';

export interface Gate {
  /** A prefix of the file's base name (`select`), or a glob over it (`select*.test`). */
  pattern: string;
  percent: number;
}

export interface GateResult {
  gate: Gate;
  passed: number;
  failed: number;
  /** Passed / (passed + failed) in percent; skipped records do not count. NaN when no record matched. */
  percent: number;
  ok: boolean;
}

export function fileLine(result: FileResult): string {
  const seconds = (result.millis / 1000).toFixed(1);
  const counts = `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`;
  const setup = result.setupError === undefined ? '' : ` — ${result.setupError}`;
  const hang = result.hang === undefined ? '' : ` — SERVER HANG ${hangLine(result.hang)}`;
  return `${result.file}: ${counts} (${seconds} s)${setup}${hang}`;
}

function hangLine(hang: ServerHang): string {
  const where = hang.line === 0 ? 'before the first record' : `at line ${hang.line}`;
  return `${where}: ${hang.reason}; ${hang.notRun} records after it not run (counted as failed)`;
}

export function totalLine(summary: Summary): string {
  const ran = summary.passed + summary.failed;
  const rate = ran === 0 ? 'n/a' : `${((100 * summary.passed) / ran).toFixed(2)}%`;
  return `total: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped (${rate} passed) in ${summary.files.length} files`;
}

/** `select=97` -> {pattern: 'select', percent: 97}. */
export function parseGate(spec: string): Gate {
  const at = spec.lastIndexOf('=');
  const percent = Number(spec.slice(at + 1));
  if (at <= 0 || spec.slice(at + 1).trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new Error(`bad --gate '${spec}': expected <file-name-prefix-or-glob>=<percent>`);
  }
  return { pattern: spec.slice(0, at), percent };
}

export function gateMatches(pattern: string, file: string): boolean {
  const name = basename(file);
  if (!/[*?]/.test(pattern)) return name.startsWith(pattern);
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${regex}$`).test(name);
}

export function evaluateGates(summary: Summary, gates: readonly Gate[]): GateResult[] {
  return gates.map((gate) => {
    const files = summary.files.filter((f) => gateMatches(gate.pattern, f.file));
    const passed = files.reduce((n, f) => n + f.passed, 0);
    const failed = files.reduce((n, f) => n + f.failed, 0);
    const percent = passed + failed === 0 ? Number.NaN : (100 * passed) / (passed + failed);
    return { gate, passed, failed, percent, ok: percent >= gate.percent };
  });
}

export function gateLine(result: GateResult): string {
  const rate = Number.isNaN(result.percent) ? 'no records matched' : `${result.percent.toFixed(2)}%`;
  const verdict = result.ok ? 'ok' : 'FAILED';
  return `gate ${result.gate.pattern}>=${result.gate.percent}%: ${rate} (${result.passed}/${result.passed + result.failed}) ${verdict}`;
}

/** `servers`: lines about the servers at the end of the run (their event loop delay). */
export function reportText(summary: Summary, gates: readonly GateResult[], servers: readonly string[] = []): string {
  const lines = ['sqllogictest report', '', ...summary.files.map(fileLine), totalLine(summary), ...gates.map(gateLine), ''];
  if (servers.length > 0) lines.push('servers at the end:', ...servers.map((l) => `  ${l}`), '');
  const hangs = summary.files.flatMap((f) => (f.hang === undefined ? [] : [f.hang]));
  lines.push(`server hangs: ${hangs.length === 0 ? 'none' : hangs.length}`);
  for (const hang of hangs) lines.push(`${hang.file} ${hangLine(hang)}`, indent('sql', hang.sql));
  lines.push('', `planning: ${summary.planningMillis} ms in all; the slowest plans (the server's planningTimeMillis):`);
  for (const plan of summary.slowestPlans) lines.push(`  ${plan.millis} ms ${plan.file}:${plan.line} ${oneLine(plan.sql)}`);
  lines.push('');
  for (const file of summary.files) {
    if (file.setupError !== undefined) lines.push(`${file.file}: ${file.setupError}`, '');
    for (const f of file.failures) {
      lines.push(`${f.file}:${f.line}${f.label === undefined ? '' : ` [${f.label}]`}`);
      lines.push(indent('sql', f.sql), indent('expected', f.expected), indent('got', f.actual), '');
    }
  }
  return lines.join('\n');
}

/** The SQL on one line, shortened: the slowest plans' list shows where, not what. */
function oneLine(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > SQL_SHOWN ? `${flat.slice(0, SQL_SHOWN)}...` : flat;
}

const SQL_SHOWN = 100;

function indent(title: string, text: string): string {
  return `  ${title}:\n${text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}`;
}

export function writeReport(path: string, summary: Summary, gates: readonly GateResult[], servers: readonly string[] = []): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, reportText(summary, gates, servers));
}
