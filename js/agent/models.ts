// Generation settings per model family for the agent's one-off requests (asset summaries,
// transcripts). Thinking models count their thoughts against maxOutputTokens, so a small limit
// can leave no room for the answer: thinking is turned off (2.5 Flash), kept at its floor
// (2.5 Pro) or set low (Gemini 3), and the limit leaves room for what thinking remains. Gemini 3
// is run at its default temperature, as Google advises for it.

export type ModelFamily = "gemini-3" | "gemini-2.5-pro" | "gemini-2.5-flash" | "non-thinking" | "unknown";

export function modelFamily(model: string): ModelFamily {
  const m = model.replace(/^models\//, "").toLowerCase();
  if (/^gemini-(3|[4-9])/.test(m)) return "gemini-3";
  if (/^gemini-2\.5-pro/.test(m)) return "gemini-2.5-pro";
  if (/^gemini-2\.5-flash/.test(m)) return "gemini-2.5-flash";
  if (/^gemini-(1\.|2\.0)/.test(m) || /^gemma-/.test(m)) return "non-thinking";
  return "unknown";
}

/** Whether Google advises running the model at its default temperature (Gemini 3 and later). */
export function keepsDefaultTemperature(model: string): boolean {
  const f = modelFamily(model);
  return f === "gemini-3" || f === "unknown";
}

export type Task = "summary" | "transcript";

/** Output tokens the answer itself needs, before any thinking. */
const ANSWER_TOKENS: Record<Task, number> = { summary: 1024, transcript: 16384 };
/** Room left for thinking where it cannot be turned off. */
const THINKING_ROOM = 4096;

/**
 * generationConfig for a one-off task on `model`. `maxOutputTokens` is capped by the proxy's
 * limit when it publishes one; `extra` (e.g. a response schema) is merged in.
 */
export function taskConfig(
  model: string,
  task: Task,
  options: { maxOutputTokens?: number; temperature?: number; extra?: Record<string, unknown>; boost?: number } = {},
): Record<string, unknown> {
  const family = modelFamily(model);
  const boost = Math.max(1, options.boost ?? 1);
  let tokens = ANSWER_TOKENS[task];
  const config: Record<string, unknown> = { ...options.extra };
  switch (family) {
    case "gemini-2.5-flash":
      config.thinkingConfig = { thinkingBudget: 0 };
      break;
    case "gemini-2.5-pro":
      // Pro cannot turn thinking off; 128 is its floor.
      config.thinkingConfig = { thinkingBudget: 128 };
      tokens += 128;
      break;
    case "gemini-3":
      config.thinkingConfig = { thinkingLevel: "low" };
      tokens += THINKING_ROOM;
      break;
    case "unknown":
      tokens += THINKING_ROOM;
      break;
    case "non-thinking":
      break;
  }
  tokens *= boost;
  if (options.maxOutputTokens && options.maxOutputTokens > 0) tokens = Math.min(tokens, options.maxOutputTokens);
  config.maxOutputTokens = Math.floor(tokens);
  if (options.temperature !== undefined && !keepsDefaultTemperature(model)) config.temperature = options.temperature;
  return config;
}
