/**
 * What a conversion is doing now ("reading the workbook"), told to whoever listens: the engine thread passes it to
 * the pool, which names it when the document overruns its time ("parsing took longer than ... while reading the
 * workbook"). A converter enters a stage before work that can take long (a library call that cannot be
 * interrupted, a loop over every page); outside a thread nobody listens and entering a stage costs nothing.
 * Stages are phrased to follow "while".
 */

let listener: ((stage: string) => void) | undefined;
let current: string | undefined;

/** Sets the one listener (the engine thread's), or removes it with undefined. */
export function listenToStages(listen: ((stage: string) => void) | undefined): void {
  listener = listen;
}

export function enterStage(stage: string): void {
  current = stage;
  listener?.(stage);
}

/** Runs `work` in a stage of its own inside the current one, which is entered again after it. */
export async function duringStage<T>(stage: string, work: () => Promise<T>): Promise<T> {
  const outer = current;
  enterStage(stage);
  try {
    return await work();
  } finally {
    if (outer !== undefined) enterStage(outer);
  }
}
