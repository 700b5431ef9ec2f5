/**
 * An error the user caused and can fix (bad path, malformed row, overlap >= size, unknown splitter).
 * The CLI prints its message without a stack and exits non-zero.
 */
export class SeamlabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeamlabError";
  }
}
