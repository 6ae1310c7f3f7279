// The entry point of a worker thread: runs the tasks the main thread starts and routes each later
// message to its task. Several tasks (of different queries) may run at once.

import { reviveMapConstants } from './revive-constants.js';
import { parentPort, workerData } from 'node:worker_threads';
import { relieveMemoryPressure } from '../../process/heap-guard.js';
import { bufferPool, configureBufferPool } from '../buffer-pool.js';
import { lowerThisThreadPriority } from '../../process/thread-priority.js';
import type { MainToThread, ThreadData, ThreadToMain } from './thread-messages.js';
import { ThreadJob } from './thread-job.js';
import { decodeStream } from './stream-decoding.js';
import { fillJoinTable } from './parallel-join-build.js';

const port = parentPort;
if (port === null) throw new Error('worker-main runs only as a worker thread');
const data = workerData as ThreadData;
lowerThisThreadPriority(data.nice);
configureBufferPool(data.bufferPoolBytes, data.bufferPoolIdleMillis);

const tasks = new Map<number, ThreadJob>();
const post = (message: ThreadToMain, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

port.on('message', (message: MainToThread) => {
  if (message.type === 'relieveMemory') {
    relieveMemoryPressure();
    return;
  }
  if (message.type === 'releaseBuffers') {
    bufferPool().clear();
    return;
  }
  if (message.type === 'decodeStream') {
    const { message: answer, transfer } = decodeStream(message);
    post(answer, transfer);
    return;
  }
  if (message.type === 'fillJoinTable') {
    post(fillJoinTable(message));
    return;
  }
  if (message.type !== 'start') {
    tasks.get(message.taskId)?.receive(message);
    return;
  }
  reviveMapConstants(message.fragment);
  const task = new ThreadJob(message, post);
  tasks.set(message.taskId, task);
  void task.run().finally(() => tasks.delete(message.taskId));
});
