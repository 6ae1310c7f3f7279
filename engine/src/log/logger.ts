// The server's logger: JSON lines on stdout (pino), one object per event.

import { pino, type Logger as PinoLogger } from 'pino';
import type { LogLevel } from '../config/config-schema.js';

export type Logger = PinoLogger;

export function createLogger(level: LogLevel, fields: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...fields }, timestamp: pino.stdTimeFunctions.isoTime });
}
