// The pages of a task's output buffer 0 on a real node, read through GET /v1/task/{id}/results/0/{token}
// until the buffer is complete, as the rows' scalars.

import { readPageStream } from '../../src/exec/exchange/page-codec.js';
import { getScalar } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';

export async function taskRows(uri: string, taskId: string, headers: Record<string, string>): Promise<Scalar[][]> {
  const rows: Scalar[][] = [];
  let token = 0;
  for (;;) {
    const response = await fetch(`${uri}/v1/task/${taskId}/results/0/${token}`, { headers: { 'X-Engine-Max-Wait': '1s', ...headers } });
    if (response.status === 200) {
      for (const page of readPageStream(new Uint8Array(await response.arrayBuffer())).pages) {
        for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
      }
    }
    if (response.headers.get('X-Engine-Buffer-Complete') === 'true') return rows;
    token = Number(response.headers.get('X-Engine-Page-End-Sequence-Id'));
  }
}
