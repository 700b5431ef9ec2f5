// 01 and 02 under `--budget`: their sampled seam cells, piloted on 30 documents, given their share of the budget;
// then each kernel's memory, hence how many notebooks run at once.
import { defaultCorpus } from "../../corpus/defaults";
import { documentSample } from "../../corpus/sample";
import { thousands } from "../../stats/format";
import { chooseDocumentBudget, documentPilotSize, minBudgetDocuments, type DocumentBudgetChoice } from "../budget";
import { kernelBaseBytes, kernelBytes, memoryJobs, reservedFor } from "./memory";
import type { PlanContext } from "./types";
import { noteGb } from "./work-levels";

/** The document sample 01-02 keep at least before the budget is set aside for the other notebooks' least work. */
const reserveFloorDocuments = 1_000;

export type DocumentPlan = ReturnType<typeof planDocuments>;

/**
 * The sample of 01-02 (undefined: every document) that fits their share of the budget and one kernel's memory, said
 * in two lines; their page note ("" without a sample), and each one's sampled cells and loads (kernel start, reads).
 */
export function planDocuments(ctx: PlanContext) {
  const { input, probes, docPrefixes } = ctx;
  const { budgetMinutes, maxBytes, declared } = input;
  const proseCorpus = input.corpus ?? defaultCorpus("prose");
  const outline = ctx.outlineOf(proseCorpus);
  const pilotIds = documentSample(outline.outlines, Math.min(outline.outlines.length, documentPilotSize)).docs;
  const docPilot = probes.documentPilot(
    proseCorpus,
    pilotIds.map((d) => d.id),
    Object.fromEntries(docPrefixes.map((prefix) => [prefix, declared[prefix].pilot!])),
  );
  const population = outline.outlines.length;
  const meanChars = outline.chars / Math.max(1, population);
  const chooseDocs = (parallel: number) =>
    chooseDocumentBudget({
      budgetMinutes,
      perCharMs: docPilot.perCharMs,
      modelledNotebooks: docPrefixes.length + ctx.retrieval.length,
      jobs: parallel,
      spentMs: probes.now() - ctx.started,
      docLengths: outline.outlines.map((doc) => doc.length),
      reservedMs: reservedFor(
        ctx,
        parallel,
        docPrefixes.length * (input.kernelStartMs + outline.readMs),
        docPrefixes.reduce((sum, p) => sum + docPilot.perCharMs[p] * meanChars, 0) *
          Math.min(population, reserveFloorDocuments),
      ),
    });
  // no more documents than one kernel can hold under --max-memory
  const perChar = Math.max(...docPrefixes.map((prefix) => kernelBytes(declared, prefix, 1) - kernelBaseBytes));
  const roomChars = (maxBytes - probes.rss() - kernelBaseBytes) / perChar;
  const holdable = Math.max(minBudgetDocuments, Math.floor(roomChars / meanChars));
  const capped = (choice: DocumentBudgetChoice): DocumentBudgetChoice =>
    (choice.sample ?? population) <= holdable
      ? choice
      : {
          sample: holdable,
          estimatedMs: (choice.estimatedMs * holdable) / (choice.sample ?? population),
          line:
            `${choice.line} Capped at ${thousands(holdable)} documents by --max-memory ` +
            `(${noteGb(maxBytes)}; a kernel holds about ${perChar} bytes per character ` +
            `of its sample).`,
        };
  let jobs = input.requestedJobs;
  let choice = capped(chooseDocs(jobs));
  // each kernel's memory, hence how many notebooks run at once
  const charsOf = (sample: DocumentBudgetChoice) => (prefix: string) =>
    docPrefixes.includes(prefix) ? (sample.sample ?? population) * meanChars : ctx.corpusChars;
  let memory = memoryJobs(ctx, charsOf(choice));
  if (memory.jobs < jobs) {
    // fewer at once: a smaller sample, and the line names the kernels as they will run
    choice = capped(chooseDocs((jobs = memory.jobs)));
    const requested = memory.line.match(/ \(of --jobs \d+\)/)?.[0] ?? "";
    memory = memoryJobs(ctx, charsOf(choice), jobs);
    memory = { ...memory, line: memory.line.replace(/ at a time(?! \(of)/, ` at a time${requested}`) };
  }
  probes.log(memory.line);
  probes.log(choice.line);
  const measured = choice.sample ?? population;
  const note =
    choice.sample === undefined
      ? ""
      : `this notebook read only a seeded stratified sample of ${thousands(choice.sample)} of ` +
        `${thousands(population)} documents (the sample that fits its share of ` +
        `\`--budget ${budgetMinutes}\`, from a pilot on ${documentPilotSize}); every figure below is on that sample, ` +
        `with 95% CIs from a cluster bootstrap over documents.`;
  const costMs: Record<string, number> = {};
  const loadMs: Record<string, number> = {};
  for (const prefix of docPrefixes) {
    costMs[prefix] = docPilot.perCharMs[prefix] * meanChars * measured;
    loadMs[prefix] = input.kernelStartMs + outline.readMs * (1 + measured / Math.max(1, population));
  }
  return { memory, jobs, sample: choice.sample, note, costMs, loadMs };
}
