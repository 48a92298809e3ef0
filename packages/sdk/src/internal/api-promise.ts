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
 * @example
 * ```ts
 * const { data: ack, response } = await client.orders.ingest(orders).withResponse();
 * console.log(ack.request_id, response.headers.get("x-ratelimit-remaining"));
 * ```
 */
export interface ApiPromise<T> extends Promise<T> {
  /** The data and the final `Response` of the call. */
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * The implementation, a real `Promise` (`instanceof Promise`) whose own settled value is never
 * used: `then` reads the data from the call, so awaiting only `withResponse()` leaves no
 * unhandled rejection behind when the call fails (openai-node's `APIPromise` works the same
 * way). Not exported as a type: its private field would make the public type nominal, and a
 * build's `.d.ts` would no longer match the sources'.
 */
export class CallPromise<T> extends Promise<T> implements ApiPromise<T> {
  // `catch` and `finally` call `then`; species keeps derived promises plain.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #call: Promise<WithResponse<T>>;

  constructor(call: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#call = call;
  }

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
