// Which tools are running now (reads may run side by side), newest last: the upload consent and
// progress read the name, uploads, polls and the summary the signal.

export interface ActiveTools {
  /** The newest running tool's name. */
  name(): string | undefined;
  /** The newest running tool's signal. */
  signal(): AbortSignal | undefined;
  /** Runs `work` as tool `name`. */
  run<T>(name: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T>;
}

export function createActiveTools(): ActiveTools {
  const active: Array<{ name: string; signal?: AbortSignal }> = [];
  let currentSignal: AbortSignal | undefined;
  let currentTool: string | undefined;
  return {
    name: () => currentTool,
    signal: () => currentSignal,
    async run(name, signal, work) {
      const entry = { name, signal };
      active.push(entry);
      [currentSignal, currentTool] = [signal, name];
      try {
        return await work();
      } finally {
        active.splice(active.indexOf(entry), 1);
        [currentSignal, currentTool] = [active.at(-1)?.signal, active.at(-1)?.name];
      }
    },
  };
}
