// Runs the fauxqs S3 emulator (in-memory) as a process of its own on a free loopback port (its
// command line binds every interface) and prints `listening <port>` once it accepts requests.

import { buildApp } from 'fauxqs';

const app = buildApp({ logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);
