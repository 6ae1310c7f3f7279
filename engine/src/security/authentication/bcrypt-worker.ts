// The worker thread that checks bcrypt passwords (bcrypt-checker.ts sends it { id, password, hash }
// and gets { id, matches } back), so that a check's ~100 ms of CPU runs beside the event loop.

import bcrypt from 'bcryptjs';
import { parentPort } from 'node:worker_threads';

interface CheckRequest {
  id: number;
  password: string;
  hash: string;
}

parentPort!.on('message', (request: CheckRequest) => {
  let matches = false;
  try {
    matches = bcrypt.compareSync(request.password, request.hash);
  } catch {
    // A hash the parser let through that bcryptjs refuses: no match.
  }
  parentPort!.postMessage({ id: request.id, matches });
});
