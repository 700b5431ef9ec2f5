/** A splitter config written as one flag value, "splitter:size:overlap[:unit]" (`compare`, `flips`). */
import { SeamlabError } from "../core/errors";
import type { SplitterConfig } from "../splitters/config";
import { splitterConfigFromFlags } from "./flag-groups";
import { flagOptions, type FlagValues } from "./flags";

export const configPairFlags = flagOptions(["a", "b"]);

/** The configs of --a and --b, both required; `example` shows a pair. */
export function configPairFromFlags(values: FlagValues, example: string): [SplitterConfig, SplitterConfig] {
  if (values.a === undefined || values.b === undefined)
    throw new SeamlabError(`--a and --b are required, e.g. ${example}.`);
  return [parseConfigSpec(String(values.a), "a", values), parseConfigSpec(String(values.b), "b", values)];
}

/** Parses "splitter:size:overlap[:unit]", e.g. "langchain:1000:200" or "recursive:400:0:tokens". */
export function parseConfigSpec(spec: string, flag: string, values: FlagValues): SplitterConfig {
  const parts = spec.split(":");
  if (parts.length < 3 || parts.length > 4 || parts.some((p) => p.trim() === ""))
    throw new SeamlabError(
      `--${flag} must look like splitter:size:overlap[:unit] (e.g. langchain:1000:200), got "${spec}".`,
    );
  const [splitter, size, overlap, unit] = parts;
  try {
    return splitterConfigFromFlags({ ...values, splitter, size, overlap, unit: unit ?? values.unit });
  } catch (error) {
    if (!(error instanceof SeamlabError)) throw error;
    throw new SeamlabError(`--${flag} ${spec}: ${error.message}`);
  }
}
