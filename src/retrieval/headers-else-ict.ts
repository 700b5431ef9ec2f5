// The default query source, written once for the notebooks' loader and the report's budget pilot alike.
import { SeamlabError } from "../core/errors";

/** True for header queries refused on a corpus without markdown headings with prose under them. */
export function isNoHeadingsError(error: unknown): boolean {
  return error instanceof SeamlabError && /no markdown headings/.test(error.message);
}

/** `build("headers")`, or `build("ict")` when the corpus has no markdown headings with prose under them. */
export function headersElseIct<T>(build: (source: "headers" | "ict") => T): { value: T; source: "headers" | "ict" } {
  try {
    return { value: build("headers"), source: "headers" };
  } catch (error) {
    if (!isNoHeadingsError(error)) throw error;
    return { value: build("ict"), source: "ict" };
  }
}
