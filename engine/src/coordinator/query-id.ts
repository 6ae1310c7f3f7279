// Query ids as Trino makes them: <yyyyMMdd>_<HHmmss>_<sequence>_<coordinator id>, in UTC, e.g.
// 20261121_223001_00003_k7x2p. The last part is random per server start, so ids from different
// coordinators never collide; the sequence makes ids within one second unique.

import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class QueryIdGenerator {
  private sequence = 0;
  readonly coordinatorId: string;

  constructor() {
    this.coordinatorId = Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  }

  next(now = new Date()): string {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1, 2)}${pad(now.getUTCDate(), 2)}`;
    const time = `${pad(now.getUTCHours(), 2)}${pad(now.getUTCMinutes(), 2)}${pad(now.getUTCSeconds(), 2)}`;
    const id = `${date}_${time}_${pad(this.sequence, 5)}_${this.coordinatorId}`;
    this.sequence = (this.sequence + 1) % 100_000;
    return id;
  }
}
