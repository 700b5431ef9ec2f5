import { SeamlabError } from "../core/errors";

/**
 * How large a sample to draw, as a user asks for it (`--sample`, `--query-sample`, a notebook parameter): `auto` for
 * a 95% CI half-width (a share in [0, 1]), a count, or everything. Documents and queries are sampled differently
 * (corpus/sample, retrieval/query-sample); the request and its parsing are one thing.
 */
export type SampleSizeRequest =
  { kind: "auto"; halfWidth: number } | { kind: "count"; count: number } | { kind: "all" };

export interface SampleRequestRules {
  /** The flag or parameter named in errors. */
  flag: string;
  /** What `auto` (and no value) means. */
  defaultRequest: SampleSizeRequest;
  /** What is counted: "documents", "queries". */
  units: string;
  /** What H is the half-width of, e.g. "a CI half-width" or "a hit-rate CI half-width". */
  halfWidthOf: string;
}

const MIN_HALF_WIDTH = 0.001;
const MAX_COUNT = 10_000_000;

/** Reads "auto", "auto:H" (0.001 ≤ H < 0.5), "all" or a count from 1 to 10,000,000; anything else names the flag. */
export function parseSampleSizeRequest(
  value: string | number | undefined,
  rules: SampleRequestRules,
): SampleSizeRequest {
  if (value === undefined || value === "") return rules.defaultRequest;
  const text = String(value).trim();
  if (text === "all") return { kind: "all" };
  if (text === "auto") return rules.defaultRequest;
  const auto = /^auto:(\d*\.?\d+)$/.exec(text);
  if (auto) {
    const halfWidth = Number(auto[1]);
    if (halfWidth >= MIN_HALF_WIDTH && halfWidth < 0.5) return { kind: "auto", halfWidth };
  }
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_COUNT)
    return { kind: "count", count: Number(text) };
  throw new SeamlabError(
    `${rules.flag} must be auto, auto:H (${rules.halfWidthOf} from 0.001 to 0.5, e.g. 0.02), all, or a whole number ` +
      `of ${rules.units} from 1 to 10,000,000; got "${text}".`,
  );
}
