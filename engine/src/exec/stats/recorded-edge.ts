// Where one operator's output is another's input. The pages pass here, and here the consumer's code
// stops and the producer's starts and back, so both ends are counted and timed here (see
// operator-recorder.ts): the producer's getOutput calls and its output, the consumer's addInput and
// finish calls and its input. A turn of the event loop, when one is due, is taken here as well, as
// the producer's blocked time.

import { estimatedPageBytes } from '../../columnar/page.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import type { PageStream } from '../operators/operator.js';
import type { OperatorRecorder } from './operator-recorder.js';

/** `consumer`: undefined at the end of the root stage, whose pages go to the client. */
export async function* recordedEdge(
  stream: PageStream,
  producer: OperatorRecorder,
  consumer: OperatorRecorder | undefined,
  signal: AbortSignal,
): PageStream {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      consumer?.stop();
      producer.start('getOutput');
      await yieldIfDue(signal, producer);
      const next = await iterator.next();
      producer.stop();
      if (next.done === true) {
        consumer?.start('finish');
        return;
      }
      const page = next.value;
      const bytes = estimatedPageBytes(page);
      producer.output(page.rowCount, bytes);
      if (consumer !== undefined) {
        consumer.input(page.rowCount, bytes);
        consumer.start('addInput');
      }
      yield page;
    }
  } finally {
    producer.stop();
    await iterator.return?.();
  }
}
