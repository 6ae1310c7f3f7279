// A one-line progress display on a terminal while a query runs, redrawn in place:
// Query 20261121_223001_00003_k7x2p: RUNNING, splits 3/10, 12,345 rows, 1.2s

import type { StatementResponseJson } from '../server/statement-json.js';

export class ProgressLine {
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  static forStderr(): ProgressLine | undefined {
    return process.stderr.isTTY ? new ProgressLine(process.stderr) : undefined;
  }

  update(response: StatementResponseJson): void {
    const s = response.stats;
    const text = `Query ${response.id}: ${s.state}, splits ${s.completedSplits}/${s.totalSplits}, ${s.processedRows.toLocaleString('en-US')} rows, ${(s.elapsedTimeMillis / 1000).toFixed(1)}s`;
    this.stream.write(`\r\x1b[2K${text.slice(0, Math.max(10, (this.stream.columns || 80) - 1))}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
