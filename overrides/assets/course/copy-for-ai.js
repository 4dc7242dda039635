// @ts-check
// "Copy for AI": every page offers its own Markdown, which the build wrote beside its HTML
// (index.md next to index.html, claims already the numbers the reader sees), for pasting into an
// AI assistant. The copy is read from this site only; nothing leaves the browser but the clipboard.
// A second concern lives here too because it is as small: before printing, the numbers behind each
// chart are opened, since paper cannot expand a <details>.
import { onEveryPage } from "../lessonkit/navigation.js";

const BUTTON_CLASS = "lk-copy-for-ai";

/**
 * The Markdown copy of the page at `href`: "/lessons/x/" -> "/lessons/x/index.md".
 * @param {string} href
 */
export function markdownAddress(href) {
  const url = new URL(href);
  url.hash = "";
  url.search = "";
  if (url.pathname.endsWith("/")) url.pathname += "index.md";
  else if (url.pathname.endsWith(".html")) url.pathname = url.pathname.replace(/\.html$/, ".md");
  else url.pathname += "/index.md";
  return url.href;
}

// What each page's Markdown copy weighs in real o200k_base tokens, counted by the build
// (lessonkit.authoring.markdown_tokens), by its address relative to the site's root.
const COUNTS = new URL("markdown-tokens.json", import.meta.url);
const SITE_ROOT = new URL("../../", import.meta.url).href;

/**
 * The o200k_base count of the Markdown copy at `address`, or null when the build's counts cannot be read.
 * @param {string} address
 */
async function realTokens(address) {
  try {
    const response = await fetch(COUNTS);
    if (!response.ok) return null;
    const counts = await response.json();
    const count = counts[address.startsWith(SITE_ROOT) ? address.slice(SITE_ROOT.length) : address];
    return typeof count === "number" ? count : null;
  } catch {
    return null; // the copy is made all the same; only its weight goes unsaid
  }
}

/** @param {string} text */
async function writeClipboard(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused: fall through to the selection, which works where the clipboard API does not.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("the browser refused to copy");
}

/** Bring to life the button the build wrote at the top of the page (course_hooks.COPY_FOR_AI), once. */
function wireButton() {
  const button = document.querySelector(`article.md-content__inner .${BUTTON_CLASS}[data-lk-waiting]`);
  const status = button?.nextElementSibling;
  if (!(button instanceof HTMLButtonElement) || !(status instanceof HTMLElement)) return;
  const address = markdownAddress(location.href);
  button.addEventListener("click", async () => {
    status.textContent = "";
    try {
      const response = await fetch(address);
      if (!response.ok) throw new Error(`the Markdown copy answered ${response.status}`);
      await writeClipboard(await response.text());
      const tokens = await realTokens(address);
      status.textContent = tokens === null ? "Copied this page as Markdown." : `Copied this page as Markdown: ${tokens.toLocaleString("en")} o200k_base tokens.`;
    } catch (error) {
      status.replaceChildren(`Could not copy (${error instanceof Error ? error.message : error}). `, Object.assign(document.createElement("a"), { href: address, textContent: "Open the Markdown" }));
    }
  });
  button.removeAttribute("data-lk-waiting");
}

function openChartNumbers() {
  for (const details of /** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll(".lk-panel details:not([open])"))) {
    details.open = true;
    details.dataset.lkPrintOpened = "";
  }
}

function restoreChartNumbers() {
  for (const details of /** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll("details[data-lk-print-opened]"))) {
    details.open = false;
    delete details.dataset.lkPrintOpened;
  }
}

window.addEventListener("beforeprint", openChartNumbers);
window.addEventListener("afterprint", restoreChartNumbers);

// Every page, instant navigation's included: Material swaps the article without reloading scripts.
onEveryPage(wireButton);
