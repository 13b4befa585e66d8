// What the panel shows of a run's costs and waits: the tokens of the last request and of the
// conversation, and one progress bar per upload or transcription.
import { h } from "./dom.js";

export class Meters {
  readonly #bars = new Map<string, HTMLElement>();

  constructor(
    readonly box: HTMLElement,
    readonly usage: HTMLElement,
  ) {}

  /** The conversation's total (none: nothing shown) and the last request's tokens. */
  showUsage(total: number | undefined, last?: number): void {
    const usage = this.usage;
    if (total === undefined) {
      usage.textContent = "";
      delete usage.dataset.last;
      delete usage.dataset.session;
      return;
    }
    usage.dataset.session = String(total);
    if (last !== undefined) usage.dataset.last = String(last);
    else delete usage.dataset.last;
    usage.textContent = `Tokens: ${last !== undefined ? `last request ${last.toLocaleString("en")}, ` : ""}this conversation ${total.toLocaleString("en")}`;
  }

  /** The bar of an upload or transcription of an asset (`name` tells its name); gone at 1. A
   * local transcriber loading its model says so (`phase`): that can take minutes at 10 %. */
  progress(kind: "upload" | "transcription", assetId: string, name: () => string, fraction: number, phase?: "loading"): void {
    const key = `${kind}:${assetId}`;
    let meter = this.#bars.get(key);
    if (fraction >= 1) {
      meter?.remove();
      this.#bars.delete(key);
      return;
    }
    const label = `${kind === "upload" ? "Uploading" : phase === "loading" ? "Loading the transcription model for" : "Transcribing"} ${name()}`;
    if (!meter) {
      meter = h(
        "div",
        { class: "meter", "data-kind": kind, "data-asset-id": assetId },
        h("span", {}, label),
        h("progress", { max: "1", value: "0", "aria-label": label }),
      );
      this.#bars.set(key, meter);
      this.box.append(meter);
    }
    const bar = meter.querySelector("progress") as HTMLProgressElement;
    (meter.querySelector("span") as HTMLElement).textContent = label;
    bar.setAttribute("aria-label", label);
    bar.value = Math.max(0, Math.min(1, fraction));
  }

  /** Removes every bar. */
  clear(): void {
    for (const m of this.#bars.values()) m.remove();
    this.#bars.clear();
  }
}
