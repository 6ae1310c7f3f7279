// Checks bcrypt passwords on one worker thread of their own (bcrypt-worker.ts), started on the first
// check and unreferenced, so it never keeps the process alive. A worker that dies fails the checks
// in flight (as wrong passwords are answered: 401) and the next check starts a new one.

import { Worker } from 'node:worker_threads';

interface CheckAnswer {
  id: number;
  matches: boolean;
}

const WORKER_URL = new URL('./bcrypt-worker.js', import.meta.url);

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (matches: boolean) => void>();

function started(): Worker {
  if (worker !== undefined) return worker;
  const created = new Worker(WORKER_URL);
  created.unref();
  created.on('message', (answer: CheckAnswer) => {
    pending.get(answer.id)?.(answer.matches);
    pending.delete(answer.id);
  });
  const gone = () => {
    if (worker === created) worker = undefined;
    for (const settle of pending.values()) settle(false);
    pending.clear();
  };
  created.on('error', gone);
  created.on('exit', gone);
  worker = created;
  return created;
}

export function bcryptMatches(password: string, hash: string): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    started().postMessage({ id, password, hash });
  });
}
