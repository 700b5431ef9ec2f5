// What a laid-out report page shows, measured inside headless Chromium (a test helper, passed to page.evaluate): text
// boxes that overprint, chart text outside its chart, scroll boxes, elements past the page's right edge, words in
// table cells broken across lines, and the colours of chart texts against their card.

/** Runs in the page: what overprints, what overflows, what scrolls, which words break, how chart texts contrast. */
export function inspectPage() {
  const boxes: { text: string; r: DOMRect; svg: boolean }[] = [];
  const visible = (el: Element) => {
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0;
  };
  const scrollBoxOf = (el: Element): Element | null => {
    for (let at: Element | null = el; at; at = at.parentElement) {
      const overflow = getComputedStyle(at).overflowY;
      if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") return at;
    }
    return null;
  };
  for (const text of Array.from(document.querySelectorAll("svg text"))) {
    // A halo (a stroked white copy under a label) sits exactly under its label by design.
    if (text.getAttribute("stroke") || !visible(text) || text.closest("[opacity='0']")) continue;
    const r = text.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) boxes.push({ text: text.textContent ?? "", r, svg: true });
  }
  const walker = document.createTreeWalker(document.querySelector("main") ?? document.body, NodeFilter.SHOW_TEXT);
  const cellTexts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("svg") || !(node.textContent ?? "").trim() || !visible(parent)) continue;
    // Inside a closed <details> (at any depth) only its own summary is on the page.
    let hidden = false;
    for (let d = parent.closest("details"); d && !hidden; d = d.parentElement?.closest("details") ?? null)
      hidden = !d.open && parent.closest("summary")?.parentElement !== d;
    if (hidden) continue;
    if (parent.closest("td, th")) cellTexts.push(node as Text);
    const range = document.createRange();
    range.selectNodeContents(node);
    // Text scrolled out of a scroll box (the seam viewer's) is not on the screen: only what its box shows counts.
    const clip = scrollBoxOf(parent)?.getBoundingClientRect();
    for (const r of Array.from(range.getClientRects()))
      if (r.width > 0 && r.height > 0 && (!clip || (r.bottom > clip.top && r.top < clip.bottom)))
        boxes.push({ text: (node.textContent ?? "").trim().slice(0, 40), r, svg: false });
  }
  const overlaps: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r;
      const b = boxes[j].r;
      // Glyph boxes of adjacent HTML lines touch when the line height is under the font's own (headings): a
      // few pixels of vertical contact is not overprinting.
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const minDy = boxes[i].svg && boxes[j].svg ? 1 : Math.min(a.height, b.height) / 2;
      if (dx > 1 && dy > minDy) overlaps.push(`"${boxes[i].text}" overprints "${boxes[j].text}"`);
    }
  // A word of a table cell that runs onto a second line anywhere but after a hyphen or a slash: "unc/lear".
  const brokenWords: string[] = [];
  for (const node of cellTexts) {
    const text = node.textContent ?? "";
    for (const word of Array.from(text.matchAll(/\S{2,}/g))) {
      const start = word.index ?? 0;
      let previousTop: number | null = null;
      for (let i = 0; i < word[0].length; i++) {
        const range = document.createRange();
        range.setStart(node, start + i);
        range.setEnd(node, start + i + 1);
        const rect = range.getBoundingClientRect();
        if (previousTop !== null && rect.top > previousTop + 2 && !/[-/–—]/.test(word[0][i - 1]))
          brokenWords.push(`${word[0].slice(0, i)}/${word[0].slice(i)}`);
        previousTop = rect.top;
      }
    }
  }
  const outsideSvg = Array.from(document.querySelectorAll("figure.chart svg")).flatMap((svg) => {
    const frame = svg.getBoundingClientRect();
    return Array.from(svg.querySelectorAll("text"))
      .filter((t) => !t.getAttribute("stroke") && visible(t) && !t.closest("[opacity='0']"))
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return (
          r.left < frame.left - 1 || r.right > frame.right + 1 || r.top < frame.top - 1 || r.bottom > frame.bottom + 1
        );
      })
      .map((t) => `"${t.textContent}" outside its chart`);
  });
  const scrollBoxes = Array.from(document.querySelectorAll(".table-wrap, figure.chart .svg-card, figure.chart"))
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    .map(
      (el) => `${el.className} scrolls (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
    );
  const wideElements = Array.from(document.querySelectorAll("body *"))
    .filter((el) => visible(el) && el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> past the page's right edge`)
    .slice(0, 5);
  return {
    texts: boxes.length,
    overlaps: overlaps.slice(0, 10),
    brokenWords: brokenWords.slice(0, 10),
    cellTexts: cellTexts.length,
    outsideSvg,
    scrollBoxes,
    wideElements,
    pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
    foldedRows: Array.from(document.querySelectorAll("tr.fold")).filter((row) => visible(row)).length,
    allFoldRows: document.querySelectorAll("tr.fold").length,
  };
}

/** Runs in a page: the share of near-white pixels in a PNG (base64), e.g. a screenshot of one chart. */
export async function whiteShare(pngBase64: string): Promise<number> {
  const image = new Image();
  image.src = `data:image/png;base64,${pngBase64}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2d canvas");
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let white = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] > 235 && data[i + 1] > 235 && data[i + 2] > 235) white++;
  return white / (data.length / 4);
}

/**
 * Runs in the page: chart texts whose colour contrasts less than 3:1 with their chart's card (WCAG's floor for large
 * text and graphics), e.g. dark labels left on a dark card, and charts whose background is not their card's. A number inside a heatmap cell or a bar (black or white
 * on a data mark) and a label's halo are drawn on data, not on the card, and are not counted.
 */
export function lowContrastChartTexts(): string[] {
  const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = (colour: string) => {
    const [r, g, b] = channels(colour).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const low: string[] = [];
  for (const card of Array.from(document.querySelectorAll("figure.chart .svg-card"))) {
    const cardColour = getComputedStyle(card).backgroundColor;
    const background = luminance(cardColour);
    // The chart's own background rectangle is the card's colour, not a white panel on a dark card.
    const own = card.querySelector("svg > rect");
    if (own && getComputedStyle(own).fill !== cardColour)
      low.push(`background ${getComputedStyle(own).fill} on ${cardColour}`);
    for (const text of Array.from(card.querySelectorAll("svg text"))) {
      if (text.getAttribute("stroke") || text.closest("[opacity='0']")) continue;
      const fill = getComputedStyle(text).fill;
      const onData = text.closest(".role-mark") && /^rgb\((0, 0, 0|255, 255, 255)\)$/.test(fill);
      if (onData || !(text.textContent ?? "").trim()) continue;
      const foreground = luminance(fill);
      const ratio = (Math.max(foreground, background) + 0.05) / (Math.min(foreground, background) + 0.05);
      if (ratio < 3) low.push(`"${text.textContent}" ${fill} on ${getComputedStyle(card).backgroundColor}`);
    }
  }
  return low.slice(0, 10);
}
