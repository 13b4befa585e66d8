// The agent sidebar: chat with Gemini through the demo server's proxy (neuralcut/agent). Each
// tool call is shown as it starts and updated with its result; with "confirm before changes"
// on (the default), a call that is not read-only waits for Allow or Decline. Uploading a clip to
// Gemini always asks first. Escape in the input stops a running message; New conversation
// cancels it too.
import { h, pretty } from "./util.js";

const CLIENT_KEY = "neuralcut-demo-client";

function clientId() {
  let id = sessionStorage.getItem(CLIENT_KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
    id = "demo_" + Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(CLIENT_KEY, id);
  }
  return id;
}

function clip(value, max = 600) {
  const text = typeof value === "string" ? value : pretty(value);
  return text.length > max ? text.slice(0, max) + "\n…" : text;
}

export async function createAgentPanel({ editor, config, sources, elements, hasModule }) {
  const { log, form, input, send, confirmBox, modelRow, modelSelect, resetButton } = elements;
  const cards = new Map();

  function scroll() {
    log.scrollTop = log.scrollHeight;
  }

  function notice(text, kind = "") {
    log.append(h("div", { class: `msg notice ${kind}` }, text));
    scroll();
  }

  function disable(reason) {
    input.disabled = true;
    send.disabled = true;
    input.placeholder = reason;
  }

  if (!config.agent) {
    notice("No Gemini API key is configured, so the agent is off. To chat with it, stop the server and start it again with GEMINI_API_KEY=your-key npm run demo (the key stays on the server). Everything else on this page works without it.", "warn");
    disable("Agent off: no GEMINI_API_KEY on the demo server");
    return { status: "no key" };
  }
  if (!hasModule) {
    notice("The agent module (neuralcut/agent) is not built yet, so the agent is off. Run npm run build, then reload.", "warn");
    disable("Agent off: neuralcut/agent not built");
    return { status: "module not built" };
  }

  const agentModule = await import("neuralcut/agent");
  const models = config.agent.models?.length ? config.agent.models : [agentModule.DEFAULT_MODEL];
  for (const m of models) modelSelect.append(h("option", { value: m }, m));
  modelSelect.value = models.includes(agentModule.DEFAULT_MODEL) ? agentModule.DEFAULT_MODEL : models[0];
  modelRow.hidden = false;

  function onEvent(event) {
    switch (event.type) {
      case "user":
        log.append(h("div", { class: "msg user" }, event.text));
        break;
      case "text":
        log.append(h("div", { class: "msg model" }, event.text));
        break;
      case "tool_call": {
        const state = h("span", { class: "state" }, "running…");
        const card = h(
          "div",
          { class: `call ${event.readOnly ? "read" : "write"}`, dataset: { callId: event.id, tool: event.name } },
          h("div", { class: "head" }, h("span", { class: "name" }, event.name), h("span", { class: "muted" }, event.readOnly ? "reads" : "changes"), state),
          h("div", { class: "caption" }, "arguments"),
          h("pre", { class: "args" }, clip(event.args, 400)),
        );
        cards.set(event.id, { card, state, name: event.name });
        log.append(card);
        break;
      }
      case "tool_result": {
        const entry = cards.get(event.id);
        if (!entry) break;
        entry.card.classList.add(event.isError ? "failed" : "ok");
        entry.state.textContent = event.isError ? `error: ${event.result.error}` : "done";
        entry.card.append(h("div", { class: "caption" }, "result"), h("pre", { class: "result" }, clip(event.result)));
        break;
      }
      case "notice":
        log.append(h("div", { class: "msg notice" }, event.message));
        break;
      case "error":
        log.append(h("div", { class: "msg error", title: event.details ?? "" }, `${event.message}`));
        break;
    }
    scroll();
  }

  /** An Allow / Decline row in `where`; resolves true for Allow, false when the message is cancelled. */
  function askIn(where, text, signal, onAnswer) {
    return new Promise((resolve) => {
      const answer = (ok) => {
        row.remove();
        onAnswer?.(ok);
        resolve(ok);
      };
      const row = h(
        "div",
        { class: "confirm" },
        h("span", { class: "muted" }, text),
        h("button", { type: "button", class: "primary", dataset: { automationId: "agent.allow" }, onclick: () => answer(true) }, "Allow"),
        h("button", { type: "button", dataset: { automationId: "agent.decline" }, onclick: () => answer(false) }, "Decline"),
      );
      signal?.addEventListener("abort", () => answer(false), { once: true });
      where.append(row);
      scroll();
      row.querySelector("button.primary").focus();
    });
  }

  /** Uploads always ask; other changes ask in the latest card of that tool while the box is checked. */
  function confirm(request) {
    if (request.kind === "upload") {
      const entry = [...cards.values()].reverse().find((c) => c.name === request.name);
      const size = request.upload ? ` (${(request.upload.sizeBytes / 1e6).toFixed(1)} MB)` : "";
      return askIn(entry ? entry.card : log, `Send "${request.upload?.assetName ?? "this asset"}"${size} to Google Gemini so the assistant can watch it?`, request.signal);
    }
    if (!confirmBox.checked) return true;
    const entry = [...cards.values()].reverse().find((c) => c.name === request.name && !c.asked);
    if (!entry) return window.confirm(`Allow ${request.name}?`);
    entry.asked = true;
    entry.state.textContent = "waiting for you";
    return askIn(entry.card, `${request.title}: allow this change?`, request.signal, (ok) => {
      entry.state.textContent = ok ? "running…" : "declined";
    });
  }

  let agent;
  function makeAgent() {
    agent?.reset();
    agent = agentModule.createAgent({
      editor,
      proxyUrl: new URL(config.agent.proxyUrl, location.href).href,
      model: modelSelect.value,
      clientId: clientId(),
      confirm,
      onEvent,
      connectContext: false,
    });
    // The demo's own media are loaded from URLs the editor does not know: fill them in.
    const provider = agent.contextProvider;
    editor.setContextProvider({
      supportedTypes: provider.supportedTypes,
      load: (request) => {
        const has = request.source && (request.source.file || request.source.url);
        const known = sources.get(request.asset.id);
        const source = has || !known ? request.source : { url: new URL(known.url, location.href).href };
        return provider.load({ ...request, source });
      },
    });
  }
  makeAgent();

  modelSelect.addEventListener("change", () => {
    makeAgent();
    notice(`New conversation with ${modelSelect.value}.`);
  });
  resetButton.addEventListener("click", () => {
    // Cancels a running message first.
    agent.reset();
    cards.clear();
    log.replaceChildren();
    notice("New conversation.");
  });

  /** The running message's controller: Escape in the input stops it. */
  let running = null;

  async function submit(text) {
    if (!text.trim()) return;
    send.disabled = true;
    input.value = "";
    running = new AbortController();
    try {
      await agent.send(text, { signal: running.signal });
    } catch (e) {
      // The loop has already shown its own errors (proxy, empty answer); show anything else.
      if (e?.name === "AbortError") notice("Stopped.");
      else if (!(e instanceof agentModule.AgentError) || e.code === "BUSY") onEvent({ type: "error", message: e instanceof Error ? e.message : String(e) });
    } finally {
      running = null;
      send.disabled = false;
      input.focus();
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit(input.value);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && running) {
      e.preventDefault();
      running.abort();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit(input.value);
    }
  });
  notice(`Connected through the demo server's Gemini proxy. Ask for an edit; each tool call shows up here. Tools: ${agent.declarations().length}.`);
  return { status: "on", send: submit };
}
