/** Throws the signal's reason (an `AbortError` DOMException unless the caller chose one). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface CombinedSignal {
  readonly signal: AbortSignal;
  /** Detaches listeners from the source signals (the fallback path would otherwise leak them). */
  dispose(): void;
}

/**
 * One signal that aborts when any source aborts. Uses `AbortSignal.any` where the runtime has it
 * (Node 20.3+, current browsers, Deno, Bun); otherwise an AbortController wired by hand.
 */
export function anySignal(sources: ReadonlyArray<AbortSignal | undefined>): CombinedSignal {
  const signals = sources.filter((s): s is AbortSignal => s !== undefined);
  if (signals.length === 1) return { signal: signals[0] as AbortSignal, dispose: noop };
  const native = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof native === "function") return { signal: native.call(AbortSignal, signals), dispose: noop };
  return anySignalFallback(signals);
}

export function anySignalFallback(signals: readonly AbortSignal[]): CombinedSignal {
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(abortReason(already));
    return { signal: controller.signal, dispose: noop };
  }
  const listeners = signals.map((s) => {
    const listener = (): void => {
      controller.abort(abortReason(s));
      dispose();
    };
    s.addEventListener("abort", listener, { once: true });
    return [s, listener] as const;
  });
  function dispose(): void {
    for (const [s, l] of listeners) s.removeEventListener("abort", l);
  }
  return { signal: controller.signal, dispose };
}

function noop(): void {}
