// Group commit: calls that arrive while a batch is in flight wait and go together in the next one.
// An idle batcher flushes on the next turn of the event loop, so a lone call pays no delay; under
// load, batches grow by themselves and round trips per call fall. See docs/decisions/005.
export interface BatcherOptions<I> {
  /** Most items in one batch. */
  maxItems?: number;
  /** Most total weight (e.g. body bytes) in one batch; an item heavier than this goes alone. */
  maxWeight?: number;
  weight?: (item: I) => number;
  /** Batches allowed in flight at once (each holds one database connection). */
  concurrency?: number;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  options: BatcherOptions<I> = {},
): (item: I) => Promise<O> {
  const maxItems = options.maxItems ?? 500;
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  const weight = options.weight ?? (() => 0);
  const concurrency = options.concurrency ?? 1;
  const queue: Pending<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  function takeBatch(): Pending<I, O>[] {
    const batch: Pending<I, O>[] = [];
    let total = 0;
    while (queue.length > 0 && batch.length < maxItems) {
      const next = queue[0] as Pending<I, O>;
      const w = weight(next.item);
      if (batch.length > 0 && total + w > maxWeight) break;
      batch.push(queue.shift() as Pending<I, O>);
      total += w;
    }
    return batch;
  }

  function flush(): void {
    scheduled = false;
    while (inFlight < concurrency && queue.length > 0) {
      const batch = takeBatch();
      inFlight++;
      run(batch.map((p) => p.item))
        .then(
          (results) => {
            for (const [i, p] of batch.entries()) p.resolve(results[i] as O);
          },
          (err) => {
            for (const p of batch) p.reject(err);
          },
        )
        .finally(() => {
          inFlight--;
          schedule();
        });
    }
  }

  function schedule(): void {
    if (scheduled || queue.length === 0 || inFlight >= concurrency) return;
    scheduled = true;
    setImmediate(flush);
  }

  return (item: I) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
