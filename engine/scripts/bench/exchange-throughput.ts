// Exchange throughput: lineitem-like pages through one output buffer, the results routes and one
// ExchangeClient over loopback, producer and consumer in this process (so the figure includes
// serializing, HTTP and deserializing on one core). Prints MB/s (Arrow bytes on the wire), rows/s, the
// CPU time it took and the event loop's worst delay (perf_hooks.monitorEventLoopDelay).
//   node dist/scripts/bench/exchange-throughput.js [rows=600000] [rowsPerPage=8192]

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { columnFromScalars, type Page } from '../../src/columnar/page.js';
import { BIGINT, DATE, decimal, INTEGER, varchar, type SqlType } from '../../src/types/types.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { OutputPage } from '../../src/worker/output-page.js';
import { OutputBuffer } from '../../src/worker/output-buffer.js';
import { PageSerializer, serializedPageBytes } from '../../src/exec/exchange/page-codec.js';
import { produce, ResultsServer } from '../../test/exchange/results-server.js';

const LINEITEM: SqlType[] = [
  BIGINT,
  BIGINT,
  BIGINT,
  INTEGER,
  decimal(12, 2),
  decimal(12, 2),
  decimal(12, 2),
  decimal(12, 2),
  varchar(1),
  varchar(1),
  DATE,
  DATE,
  DATE,
  varchar(25),
  varchar(10),
  varchar(44),
];
const INSTRUCT = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];
const MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];

function lineitemPage(start: number, rows: number): Page {
  const col = (f: (i: number) => unknown, type: SqlType) =>
    columnFromScalars(
      type,
      Array.from({ length: rows }, (_, k) => f(start + k) as never),
    );
  return {
    rowCount: rows,
    columns: [
      col((i) => BigInt(i >> 2), BIGINT),
      col((i) => BigInt((i * 7919) % 200_000), BIGINT),
      col((i) => BigInt((i * 31) % 10_000), BIGINT),
      col((i) => (i & 3) + 1, INTEGER),
      col((i) => BigInt(((i % 50) + 1) * 100), decimal(12, 2)),
      col((i) => BigInt(100_000 + ((i * 13) % 9_000_000)), decimal(12, 2)),
      col((i) => BigInt(i % 11), decimal(12, 2)),
      col((i) => BigInt(i % 9), decimal(12, 2)),
      col((i) => 'ANR'[i % 3], varchar(1)),
      col((i) => 'OF'[i % 2], varchar(1)),
      col((i) => 8000 + (i % 2500), DATE),
      col((i) => 8030 + (i % 2500), DATE),
      col((i) => 8010 + (i % 2500), DATE),
      col((i) => INSTRUCT[i % 4], varchar(25)),
      col((i) => MODES[i % 7], varchar(10)),
      col((i) => `carefully final deposits ${i % 997} haggle slyly`, varchar(44)),
    ],
  };
}

const EMPTY: Page = { rowCount: 0, columns: [] };

async function warmUp(server: ResultsServer): Promise<void> {
  const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
  server.buffers.set('warm-up.1.0', buffer);
  await produce(buffer, LINEITEM, [lineitemPage(0, 100)]);
  const client = new ExchangeClient();
  client.addLocation({ uri: server.resultsUri('warm-up.1.0', '0') });
  client.setNoMoreLocations();
  for await (const page of client) if (page.rowCount !== 100) throw new Error('warm-up exchange lost rows');
}

async function main(): Promise<void> {
  const totalRows = Number(process.argv[2] ?? 600_000);
  const rowsPerPage = Number(process.argv[3] ?? 8192);
  const pageCount = Math.ceil(totalRows / rowsPerPage);
  // Pages are built before timing: the benchmark measures the exchange, not the generator.
  const pages = Array.from({ length: pageCount }, (_, p) =>
    lineitemPage(p * rowsPerPage, Math.min(rowsPerPage, totalRows - p * rowsPerPage)),
  );
  const server = await new ResultsServer().start();
  const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
  server.buffers.set('bench.1.0', buffer);
  // One exchange of a small page first, as a running worker has done: loading and compiling the HTTP
  // client and the codec is a one-time cost that is not the exchange's throughput.
  await warmUp(server);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  let wireBytes = 0;
  const serializer = new PageSerializer(LINEITEM);
  const producer = (async () => {
    for (let p = 0; p < pages.length; p++) {
      const output = new OutputPage(pages[p], serializer);
      pages[p] = EMPTY; // a producer does not keep the pages it sent
      wireBytes += serializedPageBytes(output.serialized());
      await buffer.enqueue([output], 0);
      await new Promise((r) => setImmediate(r)); // a producer yields between pages, as a driver does
    }
    buffer.setNoMorePages();
  })();
  const client = new ExchangeClient();
  client.addLocation({ uri: server.resultsUri('bench.1.0', '0') });
  client.setNoMoreLocations();
  let rows = 0;
  for await (const page of client) rows += page.rowCount;
  await producer;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  delay.disable();
  await server.kill();
  if (rows !== totalRows) throw new Error(`read ${rows} rows, expected ${totalRows}`);
  const status = client.status();
  console.log(
    JSON.stringify(
      {
        rows,
        pages: pageCount,
        wireMB: +(wireBytes / 2 ** 20).toFixed(1),
        seconds: +seconds.toFixed(3),
        // On a shared machine wall time varies with the other load; CPU time (all threads) less so.
        cpuSeconds: +cpuSeconds.toFixed(3),
        MBperCpuSecond: +(wireBytes / 2 ** 20 / cpuSeconds).toFixed(1),
        MBps: +(wireBytes / 2 ** 20 / seconds).toFixed(1),
        rowsPerSecond: Math.round(rows / seconds),
        averageBytesPerRequest: status.averageBytesPerRequest,
        requests: status.pageBufferClientStatuses[0].requestsCompleted,
        eventLoopMaxDelayMs: +(delay.max / 1e6).toFixed(1),
        eventLoopP99DelayMs: +(delay.percentile(99) / 1e6).toFixed(1),
      },
      null,
      2,
    ),
  );
}

await main();
