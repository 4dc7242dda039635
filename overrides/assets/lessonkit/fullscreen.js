// @ts-check
// The panel's "expand" button (its words come from the spec): the panel goes full screen through the Fullscreen API. Where that is refused
// (iframes without allowfullscreen, some mobile browsers) a CSS class makes the panel fill the
// viewport instead, with Escape to leave it, so the button always does what it says.
import { button } from "./controls.js";

export class Expander {
  /**
   * `signal` ends the button's life with its panel's; a panel still filling the viewport then lets the page go.
   * @param {HTMLElement} section
   * @param {import("./types/spec.js").Words} words
   * @param {AbortSignal} signal
   */
  constructor(section, words, signal) {
    this.section = section;
    this.words = words;
    this.fallback = false;
    this.button = button(words.expand, "lk-expand", () => this.toggle());
    document.addEventListener("fullscreenchange", () => this.#sync(), { signal });
    document.addEventListener(
      "keydown",
      (event) => {
        if (event.key === "Escape" && this.fallback) this.#setFallback(false);
      },
      { signal },
    );
    // The page the site's navigation brings in must scroll: the class that held it still goes.
    signal?.addEventListener("abort", () => {
      if (this.fallback) this.#setFallback(false);
    });
  }

  get expanded() {
    return document.fullscreenElement === this.section || this.fallback;
  }

  async toggle() {
    if (this.fallback) return this.#setFallback(false);
    if (document.fullscreenElement === this.section) return document.exitFullscreen();
    // No Fullscreen API at all, or one that refuses: the panel fills the viewport instead.
    if (!this.section.requestFullscreen) return this.#setFallback(true);
    try {
      await this.section.requestFullscreen();
    } catch {
      this.#setFallback(true);
    }
  }

  /** @param {boolean} on */
  #setFallback(on) {
    this.fallback = on;
    this.section.classList.toggle("lk-expanded", on);
    document.documentElement.classList.toggle("lk-has-expanded", on);
    this.#sync();
  }

  #sync() {
    const expanded = this.expanded;
    this.button.textContent = expanded ? this.words.exit_expanded : this.words.expand;
  }
}
