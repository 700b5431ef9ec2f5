// The report's one recommendation, as HTML, on its page and first on the index ("Do this"). Only a decided verdict
// gets the big style. Every field comes from a notebook and is escaped.
import { escapeHtml } from "../notebook/format";
import type { RecommendationPayload } from "../notebook/mime";

const STATES = ["decided", "leaning", "undecided"] as const;

/** The payload if it has the shape the renderer needs (a notebook's output is data, not trusted code), else undefined. */
export function checkedRecommendation(value: unknown): RecommendationPayload | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  if (!(STATES as readonly unknown[]).includes(v.state)) return undefined;
  for (const key of ["action", "sureness", "reason"]) if (typeof v[key] !== "string") return undefined;
  for (const key of ["stability", "settle"]) if (v[key] !== undefined && typeof v[key] !== "string") return undefined;
  if (v.exported !== undefined && (typeof v.exported !== "object" || v.exported === null || Array.isArray(v.exported)))
    return undefined;
  return v as unknown as RecommendationPayload;
}

const LEADS: Record<RecommendationPayload["state"], string> = {
  decided: "Do this",
  leaning: "Leaning (not decided)",
  undecided: "Undecided",
};

/** The block: what to do (or lean to), how sure, the reason, the settling command, and links. */
export function recommendationHtml(
  payload: RecommendationPayload,
  links: { exportHref?: string; sourceHref?: string; sourceTitle?: string; id?: string } = {},
): string {
  const decided = payload.state === "decided";
  const parts = [
    `<div${links.id ? ` id="${escapeHtml(links.id)}"` : ""} class="do-this ${decided ? "decided" : "not-decided"}" ` +
      `data-state="${escapeHtml(payload.state)}">`,
    `<p class="do-this-lead"><span class="label">${escapeHtml(LEADS[payload.state])}</span>` +
      (decided
        ? `<strong class="value">${escapeHtml(payload.action)}</strong>`
        : ` <span class="tentative">${escapeHtml(payload.action)}</span>`) +
      `</p>`,
    `<p class="do-this-sure"><strong>How sure:</strong> ${escapeHtml(payload.sureness)}` +
      (payload.stability ? ` · <strong>Stability:</strong> ${escapeHtml(payload.stability)}` : "") +
      `</p>`,
    `<p>${escapeHtml(payload.reason.replace(/\*\*/g, ""))}</p>`,
  ];
  if (payload.settle)
    parts.push(`<p><strong>To settle it:</strong> <code class="settle">${escapeHtml(payload.settle)}</code></p>`);
  const linkParts: string[] = [];
  if (links.exportHref)
    linkParts.push(`<a href="${escapeHtml(links.exportHref)}" download>the chosen config (chosen.json)</a>`);
  if (links.sourceHref)
    linkParts.push(
      `the argument: <a href="${escapeHtml(links.sourceHref)}">${escapeHtml(links.sourceTitle ?? links.sourceHref)}</a>`,
    );
  if (linkParts.length > 0) parts.push(`<p class="timing">${linkParts.join(" · ")}</p>`);
  parts.push(`</div>`);
  return parts.join("");
}

/** The file name the exported config is published under, beside index.html. */
export const CHOSEN_FILE = "chosen.json";
