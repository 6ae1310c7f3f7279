/** A java.util.Formatter exception: its simple class name and message, as Trino quotes them. */
export class FormatError extends Error {
  constructor(
    readonly exception: string,
    readonly detail: string,
  ) {
    super(`${exception}: ${detail}`);
  }
}
