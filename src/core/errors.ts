/** An error the user caused and can fix (bad path, overlap >= size): the CLI prints it without a stack, exits 2. */
export class SeamlabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeamlabError";
  }
}
