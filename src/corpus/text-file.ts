// The one reader of a user's text file. Binary files are refused by name, with what to do, so no raw bytes reach
// the terminal and no parser reports a zip's bytes as "a header but no rows".
import { readFileSync } from "node:fs";
import { SeamlabError } from "../core/errors";

/** How messages name the file ("labelled set"), what it should have been ("a text CSV"), and what to do. */
export interface TextFileRole {
  what: string;
  expected?: string;
  fix: string;
}

export const CORPUS_FILE: TextFileRole = { what: "corpus file", fix: "remove it or point --corpus at text files only" };

const SIGNATURES: { bytes: number[]; name: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], name: "a zip archive (as .xlsx, .docx and .odt files are)" },
  { bytes: [0x50, 0x4b, 0x05, 0x06], name: "an empty zip archive" },
  { bytes: [0x1f, 0x8b], name: "a gzip archive" },
  { bytes: [0x25, 0x50, 0x44, 0x46], name: "a PDF" },
  { bytes: [0x89, 0x50, 0x4e, 0x47], name: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], name: "a JPEG image" },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], name: "an old Office document (.xls, .doc)" },
];

type Wide = "utf-32le" | "utf-32be" | "utf-16le" | "utf-16be";
const WIDE_SHAPES: Record<string, Wide> = { rmmm: "utf-32le", mmmr: "utf-32be", rmrm: "utf-16le", mrmr: "utf-16be" };

/** From a byte-order mark, or the NUL bytes ASCII-range text leaves in every second (or 3 of 4) bytes. */
export function wideEncoding(bytes: Uint8Array): Wide | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "utf-32le";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "utf-32be";
  if (a === 0xff && b === 0xfe) return "utf-16le";
  if (a === 0xfe && b === 0xff) return "utf-16be";
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096) & ~3);
  if (sample.length < 4) return undefined;
  const zeroAt = [0, 0, 0, 0];
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) zeroAt[i % 4]++;
  const quarter = sample.length / 4;
  // per byte position: mostly NUL (m), rarely (r), or neither
  const shape = zeroAt.map((n) => (n >= 0.7 * quarter ? "m" : n <= 0.1 * quarter ? "r" : "?")).join("");
  return WIDE_SHAPES[shape];
}

/** LF-normalised text, UTF-8 or UTF-16 (a byte-order mark dropped); UTF-32, binary and invalid UTF-8 refused. */
export function readTextFile(path: string, role: TextFileRole = CORPUS_FILE): string {
  const { what, fix } = role;
  const not = role.expected ? `, not ${role.expected}` : "";
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new SeamlabError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  const format = SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b))?.name;
  if (format) throw new SeamlabError(`${what} ${path} is ${format}${not}; ${fix}.`);
  const wide = wideEncoding(bytes);
  if (wide === "utf-32le" || wide === "utf-32be") {
    throw new SeamlabError(
      `${what} ${path} is UTF-32 (${wide.slice(6).toUpperCase()}), which seamlab does not read; ` +
        `re-encode it as UTF-8 (e.g. iconv -f UTF-32 -t UTF-8).`,
    );
  }
  const encoding = wide ?? "utf-8";
  const nul = wide ? -1 : bytes.indexOf(0);
  if (nul >= 0) throw new SeamlabError(`${what} ${path} looks binary (NUL byte at offset ${nul})${not}; ${fix}.`);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const name = wide ? `valid ${wide.toUpperCase().replace("LE", " LE").replace("BE", " BE")}` : "valid UTF-8";
    throw new SeamlabError(`${what} ${path} is not ${name}; re-encode it as UTF-8 or remove it.`);
  }
  if (text.includes("\u0000")) {
    throw new SeamlabError(
      `${what} ${path} looks binary (a NUL character in its ${encoding.toUpperCase()} text)${not}; ${fix}.`,
    );
  }
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}
