/** What a call resolves to internally: its data and the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  /**
   * The final response (after retries). Its body has already been read: use `status` and
   * `headers` (e.g. `X-Trace-Id`, `X-RateLimit-Remaining`, `Location`).
   */
  response: Response;
}

/**
 * The promise every SDK call returns: it resolves to the data, as any promise, and
 * `withResponse()` also gives the HTTP response (status, headers).
 *
 * It is a real `Promise` (`instanceof Promise`), but its own settled value is never used: `then`
 * reads the data from the call, so awaiting only `withResponse()` leaves no unhandled rejection
 * behind when the call fails (openai-node's `APIPromise` works the same way).
 *
 * @example
 * ```ts
 * const { data: ack, response } = await client.orders.ingest(orders).withResponse();
 * console.log(ack.request_id, response.headers.get("x-ratelimit-remaining"));
 * ```
 */
export class ApiPromise<T> extends Promise<T> {
  // `catch` and `finally` call `then`; species keeps derived promises plain.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #call: Promise<WithResponse<T>>;

  constructor(call: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#call = call;
  }

  /** The data and the final `Response` of the call. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#call;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass; `then` is what makes it one
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#call.then((r) => r.data).then(onfulfilled, onrejected);
  }
}
