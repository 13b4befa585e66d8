// The agent's own host tools: list_skills and load_skill (the built-in skills and the host's),
// submit_plan (the host's onPlan decides) and ask_user (the host's askUser answers). The last two
// wait for the user, so the loop runs them one at a time (INTERACTIVE_TOOLS).
import { defineHostTool, toolError, type HostTool } from "../host-tools.js";
import { abortReason } from "./client.js";
import { BUILT_IN_SKILLS, type Skill } from "./skills/index.js";
import type { AgentEvent, AgentOptions, Plan, Question } from "./types.js";
import { NeuralCutError } from "../errors.js";

/** Tools that wait for the user: they run one at a time, like edits (the panel draws them as cards of their own). */
export const INTERACTIVE_TOOLS: ReadonlySet<string> = new Set(["submit_plan", "ask_user"]);

/** The turn being run: a rejected plan refuses its later edits. */
export interface Turn {
  planRejected?: string;
}

/** Built-in skills, then the host's (a host skill replaces a built-in of the same name). */
function skills(host: Skill[] = []): Skill[] {
  const out = new Map<string, Skill>();
  for (const k of [...BUILT_IN_SKILLS, ...host]) {
    if (!k || typeof k.name !== "string" || !k.name || typeof k.body !== "string")
      throw new NeuralCutError("INVALID_OPTIONS", "a skill is { name, description, body } with a non-empty name and a markdown body");
    out.set(k.name, { name: k.name, description: typeof k.description === "string" ? k.description : "", body: k.body });
  }
  return [...out.values()];
}

const badArgs = (message: string) => toolError(message, "INVALID_ARGUMENT");

/** The tools, with submit_plan and ask_user only when the host answers them. */
export function createOwnTools(options: Pick<AgentOptions, "skills" | "onPlan" | "askUser">, emit: (event: AgentEvent) => void, turn: Turn): HostTool[] {
  const known = skills(options.skills);
  // Each runs on arguments that passed the engine's strict check (js/host-tools.ts).
  const tool = defineHostTool;
  const out: HostTool[] = [
    tool("list_skills", async () => ({ skills: known.map(({ name, description }) => ({ name, description })) })),
    tool("load_skill", async (raw) => {
      const name: unknown = raw.name;
      if (typeof name !== "string" || !name.trim()) return badArgs("name must be a non-empty string");
      const k = known.find((x) => x.name === name.trim());
      if (!k)
        return {
          error: `Skill not found: ${name} (available: ${known.map((x) => x.name).join(", ")})`,
          code: "SKILL_NOT_FOUND",
          hint: "Call list_skills for the names.",
        };
      return { name: k.name, description: k.description, body: k.body };
    }),
  ];
  if (options.onPlan) {
    const onPlan = options.onPlan;
    out.push(
      tool("submit_plan", async (raw, { signal } = {}) => {
        const a: { steps?: unknown; summary?: unknown } = raw;
        if (!Array.isArray(a.steps) || a.steps.length === 0 || a.steps.some((x) => typeof x !== "string"))
          return badArgs("steps must be a non-empty array of strings");
        if (a.summary !== undefined && typeof a.summary !== "string") return badArgs("summary must be a string");
        const plan: Plan = { steps: [...(a.steps as string[])], ...(a.summary !== undefined ? { summary: a.summary as string } : {}) };
        emit({ type: "plan", ...plan });
        const d = await answerOf(() => onPlan(structuredClone(plan), { signal: signal! }), signal);
        const decision = d && typeof d === "object" ? d.decision : undefined;
        const feedback = typeof d?.feedback === "string" && d.feedback ? { feedback: d.feedback } : {};
        if (decision === "approve") return { decision, steps: plan.steps, ...feedback };
        if (decision === "edit" && Array.isArray(d?.steps) && d.steps.every((x) => typeof x === "string"))
          return { decision, steps: [...d.steps], ...feedback };
        if (decision === "reject") {
          turn.planRejected = d?.feedback ?? "";
          return { decision, ...feedback };
        }
        return { error: "The user did not answer", code: "NO_ANSWER", hint: "Ask the user in your reply what they want." };
      }),
    );
  }
  if (options.askUser) {
    const askUser = options.askUser;
    out.push(
      tool("ask_user", async (raw, { signal } = {}) => {
        const a: { question?: unknown; options?: unknown } = raw;
        if (typeof a.question !== "string" || !a.question.trim()) return badArgs("question must be a non-empty string");
        if (a.options !== undefined && (!Array.isArray(a.options) || a.options.some((x) => typeof x !== "string")))
          return badArgs("options must be an array of strings");
        const q: Question = { question: a.question, ...(a.options ? { options: [...(a.options as string[])] } : {}) };
        emit({ type: "question", ...q });
        const answer = await answerOf(() => askUser(structuredClone(q), { signal: signal! }), signal);
        if (typeof answer !== "string") return { error: "The user did not answer", code: "NO_ANSWER", hint: "Ask the user in your reply instead." };
        return { answer };
      }),
    );
  }
  return out;
}

/** The host's answer, or undefined when its callback failed (the model hears NO_ANSWER). */
async function answerOf<T>(fn: () => T | Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  try {
    return await waitFor(fn, signal);
  } catch (e) {
    if (signal?.aborted) throw e;
    return undefined;
  }
}

/** Waits for the host's answer; stops waiting (rejecting with the abort) when `signal` aborts. */
function waitFor<T>(fn: () => T | Promise<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => reject(abortReason(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(fn)
      .then(resolve, reject)
      .finally(() => signal?.removeEventListener("abort", onAbort));
  });
}
