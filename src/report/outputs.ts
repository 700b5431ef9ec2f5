// The kernel's iopub messages as nbformat outputs: consecutive stream text merged, and update_display_data
// replacing the data of every earlier output (in any cell) with the same display id.
import type { JupyterMessage } from "./wire";
import type { MimeBundle, Output } from "./nbformat";

type DisplayOutput = Extract<Output, { output_type: "display_data" }>;

const bundleOf = (content: Record<string, unknown>) => ({
  data: { ...(content.data as MimeBundle) },
  metadata: { ...((content.metadata as Record<string, unknown>) ?? {}) },
});
const displayId = (content: Record<string, unknown>) =>
  (content.transient as { display_id?: unknown } | undefined)?.display_id;

export class OutputCollector {
  private readonly displays = new Map<string, DisplayOutput[]>();

  collect(messages: JupyterMessage[], executionCount: number | null): Output[] {
    const outputs: Output[] = [];
    let clearPending = false;
    const push = (output: Output) => {
      if (clearPending) {
        outputs.length = 0;
        clearPending = false;
      }
      outputs.push(output);
    };
    for (const message of messages) {
      const content = message.content;
      switch (message.header.msg_type) {
        case "stream": {
          const name = content.name === "stderr" ? "stderr" : "stdout";
          const last = outputs[outputs.length - 1];
          if (!clearPending && last?.output_type === "stream" && last.name === name) {
            last.text = String(last.text) + String(content.text ?? "");
          } else {
            push({ output_type: "stream", name, text: String(content.text ?? "") });
          }
          break;
        }
        case "display_data": {
          const output: DisplayOutput = { output_type: "display_data", ...bundleOf(content) };
          const id = displayId(content);
          if (typeof id === "string" && id !== "") this.displays.set(id, [...(this.displays.get(id) ?? []), output]);
          push(output);
          break;
        }
        case "update_display_data": {
          const id = displayId(content);
          for (const output of (typeof id === "string" && this.displays.get(id)) || [])
            Object.assign(output, bundleOf(content));
          break;
        }
        case "execute_result":
          push({ output_type: "execute_result", ...bundleOf(content), execution_count: executionCount });
          break;
        case "error":
          push({
            output_type: "error",
            ename: String(content.ename ?? "Error"),
            evalue: String(content.evalue ?? ""),
            traceback: Array.isArray(content.traceback) ? content.traceback.map(String) : [],
          });
          break;
        case "clear_output":
          if (content.wait) clearPending = true;
          else outputs.length = 0;
          break;
        default:
          break; // execute_input, comm messages: not part of a cell's outputs
      }
    }
    return outputs;
  }
}

/** tslab reports a failure as stderr text, no `error` message: an error output from its first `Name: message` line. */
export function errorFromStderr(outputs: Output[], fallback: string): Output[] {
  if (outputs.some((output) => output.output_type === "error")) return outputs;
  const isStderr = (output: Output): output is Extract<Output, { output_type: "stream" }> =>
    output.output_type === "stream" && output.name === "stderr";
  const stderr = outputs
    .filter(isStderr)
    .map((output) => String(output.text))
    .join("");
  const kept = outputs.filter((output) => !isStderr(output));
  const match = /^([A-Za-z_$][\w$.]*(?:Error|Exception)|Error)\b:? ?(.*)$/m.exec(stderr);
  const firstLine = stderr.split("\n").find((line) => line.trim() !== "") ?? "";
  kept.push({
    output_type: "error",
    ename: match ? match[1] : "Error",
    evalue: match ? match[2] : firstLine || fallback,
    // Frames inside tslab and node:vm say nothing about the notebook; drop them.
    traceback:
      stderr === ""
        ? [fallback]
        : stderr
            .replace(/\n$/, "")
            .split("\n")
            .filter((line) => !/^\s+at .*(node:vm|node_modules[\\/]tslab[\\/])/.test(line)),
  });
  return kept;
}
