// Runs a CLI command's `run(args)` in-process and collects what it writes to stdout.
export async function captureStdout(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  const original = process.stdout.write.bind(process.stdout);
  let out = "";
  (process.stdout as { write: unknown }).write = (chunk: string | Uint8Array) => {
    out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  };
  try {
    return { code: await run(), out };
  } finally {
    (process.stdout as { write: unknown }).write = original;
  }
}
