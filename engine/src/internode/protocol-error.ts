// A message from another node that does not follow the inter-node protocol: a header or body that is
// missing, malformed or out of range. Each side turns it into its own error: the node that received
// a bad request answers 400, the node that received a bad answer fails the task or exchange with it.

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}
