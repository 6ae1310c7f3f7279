// Worker-thread entry that fills a shared text pool buffer (see textPoolReady): building the pool
// takes seconds, which the main thread must not spend holding the event loop.

import { parentPort, workerData } from 'node:worker_threads';
import { generateTextPoolBytes } from './text-pool.js';

generateTextPoolBytes(new Uint8Array(workerData as SharedArrayBuffer));
parentPort!.postMessage('built');
