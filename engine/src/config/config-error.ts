// A configuration that cannot be used: the server does not start, and the message names what is wrong.

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
