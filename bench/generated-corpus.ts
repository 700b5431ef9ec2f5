// The generated corpora of bench:scale and bench:workers: the real npm corpora (fastify-docs, Moby-Dick) copied in,
// then seeded markdown documents of 2-40 KB (a title and `##` sections of sentences over a 2,000-word vocabulary)
// until the folder holds the size asked for. Written under the system's temporary folder, never into the repo, and
// reused by later runs once complete. Generated text has no meaning: the numbers it gives are for cost only.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { seededRandom } from "../src/core/random";
import { listCorpus } from "../src/corpus/load";
import { projectRoot } from "../src/core/project";

/** The real npm corpora every generated corpus holds (installed with the project). */
export const REAL_CORPORA = ["fastify-docs", "moby-dick"];

function vocabulary(seed: number): string[] {
  const random = seededRandom(seed);
  const letters = "etaoinshrdlucmfwypvbgkqjxz";
  return Array.from({ length: 2000 }, () => {
    const length = 2 + Math.floor(random() * random() * 10);
    let word = "";
    for (let i = 0; i < length; i++) word += letters[Math.floor(random() * random() * letters.length)];
    return word;
  });
}

/**
 * Writes a corpus of `megabytes` (10^6 bytes) into a fresh folder: the real npm corpora, then generated markdown
 * until the total reaches the size. Returns the folder and a line describing it.
 */
export function generateCorpus(megabytes: number, root: string = projectRoot()): { dir: string; description: string } {
  const dir = join(tmpdir(), `seamlab-scale-${megabytes}mb`);
  const complete = join(dir, ".complete");
  if (existsSync(complete)) return { dir, description: readFileSync(complete, "utf8") };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let real = 0;
  let realFiles = 0;
  for (const name of REAL_CORPORA) {
    for (const file of listCorpus(name, { projectRoot: root }).files) {
      const target = join(dir, name, file.id);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(file.path, target);
      real += statSync(target).size;
      realFiles++;
    }
  }
  const words = vocabulary(7);
  const random = seededRandom(megabytes);
  const pick = () => words[Math.floor(random() * random() * words.length)];
  const sentence = () => {
    const n = 6 + Math.floor(random() * 20);
    const body = Array.from({ length: n }, pick).join(" ");
    return body[0].toUpperCase() + body.slice(1) + (random() < 0.1 ? "?" : ".");
  };
  let written = real;
  let generated = 0;
  for (let doc = 0; written < megabytes * 1_000_000; doc++, generated++) {
    const folder = join(dir, `part-${String(Math.floor(doc / 500)).padStart(4, "0")}`);
    if (doc % 500 === 0) mkdirSync(folder, { recursive: true });
    const target = 2_000 + Math.floor(random() * random() * 38_000);
    const parts = [`# ${sentence().slice(0, 40)}\n`];
    let length = parts[0].length;
    while (length < target) {
      const heading = `## ${Array.from({ length: 2 + Math.floor(random() * 5) }, pick).join(" ")}\n`;
      const paragraphs = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 6) }, sentence).join(" "),
      );
      const section = `\n${heading}\n${paragraphs.join("\n\n")}\n`;
      parts.push(section);
      length += section.length;
    }
    const text = parts.join("");
    writeFileSync(join(folder, `doc-${doc}.md`), text);
    written += Buffer.byteLength(text);
  }
  const description =
    `${(written / 1e6).toFixed(1)} MB: ${generated.toLocaleString("en-US")} generated files ` +
    `(${((written - real) / 1e6).toFixed(1)} MB) + ${realFiles} real files (${(real / 1e6).toFixed(1)} MB)`;
  writeFileSync(complete, description);
  return { dir, description };
}
