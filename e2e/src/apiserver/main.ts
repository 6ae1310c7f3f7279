// `node e2e/dist/src/apiserver/main.js [--port N] [--kubeconfig FILE] [--watch-history N]
// [--bookmark-interval-ms N]`: starts the API test server, writes a kubeconfig, prints the URL.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { ApiServer } from './server.js';
import { kubeconfig } from './kubeconfig.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    kubeconfig: { type: 'string' },
    'watch-history': { type: 'string' },
    'bookmark-interval-ms': { type: 'string' },
  },
});

const server = new ApiServer({
  port: Number(values.port),
  watchHistory: values['watch-history'] ? Number(values['watch-history']) : undefined,
  bookmarkIntervalMs: values['bookmark-interval-ms'] ? Number(values['bookmark-interval-ms']) : undefined,
});
const url = await server.listen();
if (values.kubeconfig) fs.writeFileSync(values.kubeconfig, kubeconfig(url));
console.log(JSON.stringify({ url }));
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
