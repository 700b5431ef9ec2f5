// Generated text for splitter tests and benchmarks: the seed's 599-character paragraph and seeded prose.
import { seededRandom } from "../../src/core/random";

/** Python's `" ".join([ch * 9] * 60)`: one 599-character paragraph (the seed's repro). */
export function paragraph599(ch: string): string {
  return Array.from({ length: 60 }, () => ch.repeat(9)).join(" ");
}

/** Seeded prose: paragraphs of 20-140 words. */
export function generatedProse(chars: number, seed = 7): string {
  const random = seededRandom(seed);
  const words = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "observability",
    "trace",
    "span",
    "metric",
    "log",
    "the",
    "a",
    "of",
  ];
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const count = 20 + Math.floor(random() * 120);
    const paragraph: string[] = [];
    for (let i = 0; i < count; i++) paragraph.push(words[Math.floor(random() * words.length)]);
    const text = paragraph.join(" ") + ".";
    paragraphs.push(text);
    length += text.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, chars);
}
