// Token counts: every model call the agent makes (the loop's, summaries', transcripts') is counted
// from Gemini's usageMetadata, per call and for the agent's whole life, and reported as an event.
import type { ProxyClient } from "./client.js";
import type { AgentEvent, TokenCounts } from "./types.js";

const zero = (): TokenCounts => ({ promptTokens: 0, outputTokens: 0, totalTokens: 0 });

export interface UsageCounter {
  /** Counts a model call's tokens and reports them. */
  note(usage: Record<string, unknown> | undefined): void;
  /** Copies of the last call's and the session's counts. */
  get(): { last: TokenCounts; session: TokenCounts };
  /** `client` with its one-off `generate` calls counted like the loop's. */
  counted(client: ProxyClient): ProxyClient;
}

export function createUsageCounter(emit: (event: AgentEvent) => void): UsageCounter {
  const tokens = { last: zero(), session: zero() };
  const note = (usage: Record<string, unknown> | undefined): void => {
    if (!usage || typeof usage !== "object") return;
    const n = (k: string) => (typeof usage[k] === "number" && Number.isFinite(usage[k]) ? (usage[k] as number) : 0);
    const last = { promptTokens: n("promptTokenCount"), outputTokens: n("candidatesTokenCount") + n("thoughtsTokenCount"), totalTokens: n("totalTokenCount") };
    tokens.last = last;
    tokens.session = {
      promptTokens: tokens.session.promptTokens + last.promptTokens,
      outputTokens: tokens.session.outputTokens + last.outputTokens,
      totalTokens: tokens.session.totalTokens + last.totalTokens,
    };
    emit({ type: "usage", last: { ...tokens.last }, session: { ...tokens.session } });
  };
  return {
    note,
    get: () => ({ last: { ...tokens.last }, session: { ...tokens.session } }),
    counted: (client) => ({
      ...client,
      clientId: client.clientId,
      generate: async (req, signal) => {
        const out = await client.generate(req, signal);
        note(out.usageMetadata);
        return out;
      },
    }),
  };
}
