// A worker serves no statements: clients send queries to the coordinator. The statement paths answer
// 404 with a JSON error that says so and names the coordinator.

import type Router from '@koa/router';
import { HttpError } from '../errors/http-error.js';
import type { ServerContext } from './server-context.js';

export function workerRefusesStatements(router: Router, server: ServerContext): void {
  const refuse = () => {
    throw new HttpError(
      404,
      `This node is a worker and serves no statements; send queries to the coordinator at ${server.config.discovery.uri ?? '(unknown)'}`,
      'NOT_A_COORDINATOR',
    );
  };
  router.post('/v1/statement', refuse);
  router.get('/v1/statement/:queryId/:token', refuse);
  router.delete('/v1/statement/:queryId/:token', refuse);
}
