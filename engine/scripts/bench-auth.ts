// `node engine/dist/scripts/bench-auth.js`: what client authentication costs. One server process at
// a time, over HTTPS with certificates made for the run: requests per second of an authenticated
// cheap endpoint (GET /v1/node; GET /v1/info is public and so never authenticated) and small queries
// per second (POST SELECT 1, then its nextUri to the end), with no authentication, with Basic
// against a bcrypt (cost 10) password file with the success cache and without it, and with an RS256
// JWT. The four servers run at once and take turns, round after round, so that a machine whose load
// varies weighs on each alike; prints the median of the rounds and each round's figure.
//
//   node engine/dist/scripts/bench-auth.js [--seconds 3] [--rounds 3] [--concurrency 8]

import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { basic, makeTlsFiles, writePasswordFile, type TlsFiles } from '../test/support/tls-fixtures.js';
import { freePort, startEngineServer } from './sqllogictest/server-process.js';

const CLI = resolve(fileURLToPath(import.meta.url), '..', '..', 'src', 'cli', 'main.js');
const SECRET = 'bench-auth shared secret';
const PASSWORD = 'bench password';

interface Setup {
  name: string;
  args: string[];
  headers: Record<string, string>;
}

interface Answer {
  status: number;
  body: string;
}

function call(agent: Agent, ca: string, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers, agent, ca }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolvePromise({ status: response.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `work` from `concurrency` loops for `seconds`; the completed count per second. */
async function rate(seconds: number, concurrency: number, work: () => Promise<void>): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await work();
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

interface Target {
  setup: Setup;
  getNode(): Promise<void>;
  runQuery(): Promise<void>;
  close(): Promise<void>;
}

async function startTarget(setup: Setup, tls: TlsFiles, concurrency: number): Promise<Target> {
  const httpsPort = await freePort();
  const server = await startEngineServer({
    cliPath: CLI,
    args: [
      '--https-enabled',
      'true',
      '--https-port',
      String(httpsPort),
      '--https-certificate-file',
      tls.chainFile,
      '--https-key-file',
      tls.keyFile,
      '--log-level',
      'warn',
      ...setup.args,
    ],
    env: { ...process.env, ENGINE_SHARED_SECRET: SECRET },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const base = `https://127.0.0.1:${httpsPort}`;
  const getNode = async () => {
    const answer = await call(agent, tls.ca, `${base}/v1/node`, 'GET', setup.headers);
    if (answer.status !== 200) throw new Error(`${setup.name}: GET /v1/node answered ${answer.status}: ${answer.body}`);
  };
  const runQuery = async () => {
    let answer = await call(agent, tls.ca, `${base}/v1/statement`, 'POST', { ...setup.headers, 'X-Trino-Catalog': 'tpch' }, 'SELECT 1');
    for (;;) {
      if (answer.status !== 200) throw new Error(`${setup.name}: statement answered ${answer.status}: ${answer.body}`);
      const next = (JSON.parse(answer.body) as { nextUri?: string }).nextUri;
      if (next === undefined) break;
      answer = await call(agent, tls.ca, next, 'GET', setup.headers);
    }
  };
  return {
    setup,
    getNode,
    runQuery,
    close: async () => {
      agent.destroy();
      await server.stop();
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  const rounds = Number(values.rounds);
  if (!(seconds > 0) || !Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(rounds) || rounds < 1) {
    throw new Error('--seconds must be positive, --concurrency and --rounds positive integers');
  }
  const tls = makeTlsFiles();
  try {
    const passwordFile = join(tls.dir, 'password.db');
    writePasswordFile(passwordFile, { bench: PASSWORD }, 10);
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(tls.dir, 'jwt.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const jwt = await new SignJWT({ sub: 'bench' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const auth = [
      '--authentication-types',
      'PASSWORD,JWT',
      '--password-file',
      passwordFile,
      '--jwt-key-file',
      join(tls.dir, 'jwt.pem'),
      '--authentication-allow-insecure-over-http',
      'true',
    ];
    const setups: Setup[] = [
      { name: 'no authentication', args: [], headers: { 'X-Trino-User': 'bench' } },
      { name: 'Basic, cache on', args: auth, headers: { Authorization: basic('bench', PASSWORD) } },
      { name: 'Basic, cache off', args: [...auth, '--password-cache-max-size', '0'], headers: { Authorization: basic('bench', PASSWORD) } },
      { name: 'JWT (RS256)', args: auth, headers: { Authorization: `Bearer ${jwt}` } },
    ];
    console.log(
      `HTTPS, ${concurrency} concurrent keep-alive clients, bcrypt cost 10; ${rounds} rounds of ${seconds} s per figure, the setups taking turns (a machine shared with other work varies), median of the rounds`,
    );
    const targets: Target[] = [];
    try {
      for (const setup of setups) targets.push(await startTarget(setup, tls, concurrency));
      // A second of each first, unmeasured: the code of both sides warmed up, the connections open.
      for (const target of targets) {
        await rate(1, concurrency, target.getNode);
        await rate(1, concurrency, target.runQuery);
      }
      const figures = new Map<Target, { node: number[]; query: number[] }>(targets.map((t) => [t, { node: [], query: [] }]));
      for (let round = 0; round < rounds; round++) {
        for (const target of targets) {
          figures.get(target)!.node.push(await rate(seconds, concurrency, target.getNode));
          figures.get(target)!.query.push(await rate(seconds, concurrency, target.runQuery));
        }
      }
      console.log(`${'setup'.padEnd(20)}${'GET /v1/node req/s'.padStart(20)}${'SELECT 1 queries/s'.padStart(20)}   (each round's figures)`);
      for (const target of targets) {
        const { node, query } = figures.get(target)!;
        console.log(
          `${target.setup.name.padEnd(20)}${median(node).toFixed(0).padStart(20)}${median(query).toFixed(1).padStart(20)}   ${node.map((n) => n.toFixed(0)).join('/')}  ${query.map((q) => q.toFixed(1)).join('/')}`,
        );
      }
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
  } finally {
    tls.remove();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
