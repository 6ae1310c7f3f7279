// What a client of the engine's HTTP endpoints reports when the server refused or answered
// something unusable: the message says which request and why.

export class ClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientError';
  }
}
