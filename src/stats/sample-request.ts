import { SeamlabError } from "../core/errors";

/** A sample size as a user asks for it (`--sample`, `--query-sample`): auto for a 95% CI half-width, a count, all. */
export type SampleSizeRequest =
  { kind: "auto"; halfWidth: number } | { kind: "count"; count: number } | { kind: "all" };

export interface SampleRequestRules {
  flag: string;
  /** what `auto` (and no value) means */
  defaultRequest: SampleSizeRequest;
  units: string;
  /** e.g. "a hit-rate CI half-width" */
  halfWidthOf: string;
}

/** "auto", "auto:H" (0.001 ≤ H < 0.5), "all" or a count from 1 to 10,000,000. */
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
    if (halfWidth >= 0.001 && halfWidth < 0.5) return { kind: "auto", halfWidth };
  }
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 10_000_000)
    return { kind: "count", count: Number(text) };
  throw new SeamlabError(
    `${rules.flag} must be auto, auto:H (${rules.halfWidthOf} from 0.001 to 0.5, e.g. 0.02), all, or a whole number ` +
      `of ${rules.units} from 1 to 10,000,000; got "${text}".`,
  );
}
