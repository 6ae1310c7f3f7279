// The long-task log's summary adds up each process's stretches per holder: an operator's stretches
// whatever the rows of their last page, a collector's per kind, only from the time asked.

import { expect } from 'chai';
import { summarizeLongTasks } from '../../scripts/bench/long-task-summary.js';

const LOG = [
  '2026-11-28T01:40:00.000Z long task: pid 7 90.0 ms hashAggregation addInput (plan node 1, last input page 16420 rows)',
  '2026-11-28T01:45:05.000Z long task: pid 7 40.5 ms hashAggregation addInput (plan node 1, last input page 20435 rows)',
  '2026-11-28T01:45:06.000Z long task: pid 7 31.0 ms hashAggregation addInput (plan node 1, last input page 8192 rows)',
  '2026-11-28T01:45:07.000Z long task: pid 7 120.0 ms garbage collector (minor)',
  '2026-11-28T01:45:08.000Z long task: pid 8 35.0 ms garbage collector (minor)',
  '2026-11-28T01:45:09.000Z long task: pid 7 50.0 ms garbage collector (major)',
  'not a long-task line',
];

describe('long-task log summary', () => {
  it('adds up stretches per process and holder from the time asked, the biggest total first', () => {
    expect(summarizeLongTasks(LOG, '2026-11-28T01:45:05')).to.deep.equal([
      { pid: 7, holder: 'garbage collector (minor)', count: 1, totalMillis: 120, maxMillis: 120 },
      { pid: 7, holder: 'hashAggregation addInput (plan node 1)', count: 2, totalMillis: 71.5, maxMillis: 40.5 },
      { pid: 7, holder: 'garbage collector (major)', count: 1, totalMillis: 50, maxMillis: 50 },
      { pid: 8, holder: 'garbage collector (minor)', count: 1, totalMillis: 35, maxMillis: 35 },
    ]);
  });

  it('takes every line without a time to start from', () => {
    const aggregation = summarizeLongTasks(LOG).find((h) => h.holder.startsWith('hashAggregation'));
    expect(aggregation?.count).to.equal(3);
    expect(aggregation?.maxMillis).to.equal(90);
  });
});
