// A refused authentication: 401 with the challenges of every configured type, and a message that
// says what was wrong without repeating the credentials.

import { HttpError } from '../../errors/http-error.js';

export class AuthenticationError extends HttpError {
  constructor(message: string, status = 401, errorName = 'AUTHENTICATION_FAILED') {
    super(status, message, errorName);
  }
}
