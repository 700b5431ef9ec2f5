// Markdown for notebook cells and md() outputs: raw HTML off, images only from data: URIs (anything else would be
// a request leaving the page), and stable heading ids for the table of contents.
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import { escapeHtml } from "../notebook/format";

type Markdown = ReturnType<typeof MarkdownIt>;
type Attachments = Record<string, Record<string, unknown>>;

export interface Heading {
  level: number;
  text: string;
  id: string;
}

/** Gives each heading a unique slug on one page. */
export class Slugger {
  private readonly used = new Map<string, number>();

  slug(text: string): string {
    const base =
      text
        .toLowerCase()
        .normalize("NFKD")
        .replace(/[^\p{L}\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, "") || "section";
    const count = this.used.get(base) ?? 0;
    this.used.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  }
}

const SAFE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i;

export function createMarkdown(): Markdown {
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
  markdown.renderer.rules.image = (tokens, index, _options, env) => {
    const token = tokens[index];
    let src = String(token.attrGet("src") ?? "");
    // Jupyter stores pasted images as cell attachments: `![x](attachment:name.png)`.
    if (src.startsWith("attachment:")) {
      const bundle =
        (env as { attachments?: Attachments })?.attachments?.[decodeURIComponent(src.slice("attachment:".length))] ??
        {};
      const type = ["image/png", "image/jpeg", "image/gif", "image/webp"].find((t) => typeof bundle[t] === "string");
      if (type) src = `data:${type};base64,${String(bundle[type]).replace(/\s+/g, "")}`;
    }
    const alt = token.children ? token.children.map((child) => child.content).join("") : token.content;
    if (!SAFE_IMAGE.test(src))
      return `<span class="missing-image">[image not embedded: ${escapeHtml(alt || src)}]</span>`;
    return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
  };
  // Links between notebooks (`02-seam-damage.ipynb#section`) point at the rendered pages instead.
  const defaultLinkOpen =
    markdown.renderer.rules.link_open ??
    ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const href = String(tokens[index].attrGet("href") ?? "");
    const local = /^([\w.-]+)\.ipynb(#.*)?$/.exec(href);
    if (local) tokens[index].attrSet("href", `${local[1]}.html${local[2] ?? ""}`);
    return defaultLinkOpen(tokens, index, options, env, self);
  };
  return markdown;
}

/** Renders markdown, giving h1–h3 ids from `slugger` and reporting them for the table of contents. */
export function renderMarkdown(
  markdown: Markdown,
  text: string,
  slugger: Slugger,
  headings: Heading[],
  attachments?: Attachments,
): string {
  const env = { attachments };
  const tokens = markdown.parse(text, env);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "heading_open") continue;
    const level = Number(token.tag.slice(1));
    const inline = tokens[i + 1];
    const plain = inline?.children
      ? inline.children
          .filter((c: Token) => c.type === "text" || c.type === "code_inline")
          .map((c: Token) => c.content)
          .join("")
      : "";
    const id = slugger.slug(plain);
    token.attrSet("id", id);
    if (level <= 3) headings.push({ level, text: plain, id });
  }
  return markdown.renderer.render(tokens, markdown.options, env);
}
