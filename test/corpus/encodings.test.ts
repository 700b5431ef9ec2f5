// Files a corpus folder can hold that are not plain UTF-8 text: UTF-16 is decoded, UTF-32 is refused by name, and
// FIFOs, sockets and dangling symlinks are skipped and counted (a FIFO is never opened: it would block).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { wideEncoding } from "../../src/corpus/text-file";

const text = "# Title\n\nCafé — naïve text, with a 🐋.\n";
const utf16be = (s: string) => Buffer.from(s, "utf16le").swap16();
const utf32 = (s: string, bigEndian: boolean) => {
  const points = [...s].map((c) => c.codePointAt(0)!);
  const out = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => (bigEndian ? out.writeUInt32BE(p, i * 4) : out.writeUInt32LE(p, i * 4)));
  return out;
};

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-encodings-"));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("UTF-16 files, little- or big-endian, with or without a byte-order mark, are decoded to the same text", () => {
  withDir((dir) => {
    writeFileSync(join(dir, "a.md"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    writeFileSync(join(dir, "b.md"), Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]));
    writeFileSync(join(dir, "c.md"), Buffer.from(text, "utf16le"));
    writeFileSync(join(dir, "d.md"), utf16be(text));
    const corpus = loadCorpus(dir);
    assert.deepEqual(
      corpus.docs.map((d) => d.text),
      [text, text, text, text],
    );
  });
});

test("UTF-32 is refused with that word, with or without a byte-order mark", () => {
  for (const [bytes, what] of [
    [Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(text, false)]), "utf-32le"],
    [Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), utf32(text, true)]), "utf-32be"],
    [utf32(text, false), "utf-32le"],
    [utf32(text, true), "utf-32be"],
  ] as const) {
    assert.equal(wideEncoding(bytes), what);
    withDir((dir) => {
      writeFileSync(join(dir, "a.md"), bytes);
      assert.throws(
        () => loadCorpus(dir),
        /a\.md is UTF-32 \(\w\w\), which seamlab does not read; re-encode it as UTF-8/,
      );
    });
  }
});

test("a binary file is still called binary, not UTF-16", () => {
  const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
  assert.equal(wideEncoding(bytes), undefined);
  withDir((dir) => {
    writeFileSync(join(dir, "a.md"), Buffer.concat([Buffer.from("PK"), Buffer.from([0, 0]), bytes]));
    assert.throws(() => loadCorpus(dir), /looks binary \(NUL byte at offset 2\)/);
  });
});

test("FIFOs and dangling symlinks are skipped and counted, and nothing blocks", () => {
  withDir((dir) => {
    writeFileSync(join(dir, "a.md"), text);
    execFileSync("mkfifo", [join(dir, "pipe.md")]);
    symlinkSync(join(dir, "gone.md"), join(dir, "dangling.md"));
    symlinkSync(join(dir, "gone.txt"), join(dir, "other-extension.png"));
    const corpus = loadCorpus(dir);
    assert.deepEqual(
      corpus.docs.map((d) => d.id),
      ["a.md"],
    );
    assert.equal(corpus.skippedSpecial, 2);
  });
});
