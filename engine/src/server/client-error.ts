// Requests Node's HTTP parser refuses before Koa sees them (a header over the size limit, a malformed
// request line): Node would answer them with a bare status and no body. Here they get the same JSON
// error body as every other error, with the status Node would have chosen.

import type { Server } from 'node:http';
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../log/logger.js';
import { errorBody, errorNameForStatus } from '../errors/http-error.js';

interface ParserError extends Error {
  code?: string;
}

/** Status and message for a parser error; the codes are Node's (llhttp's HPE_* and its own). */
function describe(error: ParserError): { status: number; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `Request header fields are too large (the limit is ${maxHeaderSize} bytes in all)` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    default:
      return { status: 400, message: `Malformed HTTP request: ${error.message}${error.code ? ` (${error.code})` : ''}` };
  }
}

export function answerClientErrorsInJson(server: Server, logger: Logger): void {
  server.on('clientError', (error: ParserError, socket: Socket) => {
    // Nothing to answer on a reset or closed connection, nor once a response has started on it.
    const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    const { status, message } = describe(error);
    logger.debug({ status, code: error.code, remoteAddress: socket.remoteAddress }, 'request refused by the HTTP parser');
    const body = JSON.stringify(errorBody(message, errorNameForStatus(status)));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
