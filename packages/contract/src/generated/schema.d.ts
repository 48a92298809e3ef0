// generated — do not edit. Source: spec/openapi.yaml. Re-make with `npm run generate`.

export interface paths {
    "/ingest/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest orders
         * @description Creates or updates up to 1000 orders, each identified by its `external_id`. The call is
         *     answered `202` as soon as the batch is validated and stored; the orders are applied
         *     asynchronously, all or nothing. Poll the request in `Location` for the outcome.
         *
         *     Each order is its complete current state: lines and optional fields left out are removed.
         *     A line cannot be lowered below its shipped or returned quantity, nor removed once some of
         *     it is shipped or returned, and `currency` cannot change once the order has shipments or
         *     returns.
         *     `status` may be `open` (the default), `on_hold` or `cancelled`; `partially_shipped` and
         *     `shipped` are derived from shipments, and an order with shipments cannot be cancelled.
         *     An order whose `source_updated_at` is not newer than the stored one is `stale` and
         *     changes nothing.
         *
         *     Rate-limit scope: `ingest`.
         */
        post: operations["ingestOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest inventory snapshots
         * @description Records stock levels, as snapshots per location. A level is kept per
         *     (`location_id`, `sku`) and is only replaced by a snapshot with a newer `as_of`; an older
         *     or equal one is `stale`.
         *
         *     - `mode: partial` updates the SKUs it lists and leaves the others alone.
         *     - `mode: full` is the complete stock of the location: SKUs of that location that the
         *       snapshot does not list drop to zero as of `as_of`.
         *
         *     Up to 1000 snapshots per call, up to 10000 items per snapshot (and 5 MiB per body).
         *     Inventory requests do not fail on business rules. In the request's `result`, each
         *     snapshot is one item of type `inventory_snapshot` whose `id` is the snapshot's
         *     `location_id`, with outcome `created` if it made any new level, else `updated` if it
         *     changed any quantity (full-mode zeroing included), else `unchanged` if it was newer but
         *     equal, else `stale`. A SKU listed twice in one snapshot counts once (the first).
         *
         *     Rate-limit scopes: `ingest` and the stricter `ingest_inventory` (a call counts toward both).
         */
        post: operations["ingestInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/shipments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest shipments
         * @description Records up to 1000 shipments of order lines. `order_id` is the order's server id or its
         *     `external_id`. Rules (a violation fails the request): the order exists and is not
         *     cancelled, each `line_id` is a line of that order, and a line's shipped quantity never
         *     exceeds its ordered quantity.
         *
         *     A shipment updates the lines' `quantity_shipped`, the order's status (`partially_shipped`
         *     or `shipped`) and `version`, and moves the order to the head of the orders change feed.
         *
         *     Shipments are identified by `external_id`, and their order and lines are fixed once
         *     recorded. Sending a shipment again with the same order and lines is `unchanged` when
         *     nothing else differs, and `updated` when other details (carrier, service, tracking,
         *     `shipped_at`, location) changed, e.g. to correct a tracking number; that refreshes the
         *     order's shipment summary and gives the order a new `version`. Sending it with another
         *     order or other lines fails with `shipment_conflict`.
         *
         *     Rate-limit scope: `ingest`.
         */
        post: operations["ingestShipments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/returns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest returns
         * @description Creates or updates up to 1000 returns, each identified by its `external_id` (the RMA
         *     number). `order_id` is the order's server id or its `external_id`.
         *
         *     Rules (a violation fails the request): the order and each line exist, and across the
         *     order's active returns (all but `rejected` and `cancelled`) a line's returned quantity
         *     never exceeds its ordered quantity. `status` may be any state but `completed`, which only
         *     dispositions reach. A new return may start in any of them; an update must follow the state
         *     machine described at `ReturnStatus` (sending the same status is no transition). An item's
         *     quantity cannot drop below what has already been dispositioned.
         *
         *     `sku` on items is optional and taken from the order line. A return whose
         *     `source_updated_at` is not newer than the stored one is `stale`.
         *
         *     Every new version of a return emits a `return.created` or `return.updated` event (and
         *     `return.cancelled` on entering `cancelled`). A return that changes a line's
         *     `quantity_returned` also gives the order a new `version` and moves it in the orders
         *     change feed.
         *
         *     Rate-limit scope: `ingest`.
         */
        post: operations["ingestReturns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/returns/{return_id}/dispositions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The return's server id (`ret_...`), tried first, or its `external_id` (the RMA).
                 * @example RMA-10042
                 */
                return_id: components["parameters"]["ReturnIdentifier"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest dispositions for a return
         * @description Records up to 1000 dispositions (what happens to returned units: restock, refurbish,
         *     dispose, ...) for one return, named in the path by its server id or its RMA
         *     (`external_id`). You may post dispositions right after submitting the return itself: the
         *     return is looked up when the request is processed, after every earlier request of your
         *     account.
         *
         *     Rules (a violation fails the request): the return exists and is not `rejected` or
         *     `cancelled`, each `line_id` is an item of the return, and per line the dispositioned
         *     quantity never exceeds the returned quantity. A disposition whose `external_id` was
         *     already recorded for this return is `unchanged`.
         *
         *     The first disposition moves the return to `received`; when every item is fully
         *     dispositioned the return becomes `completed`. Each disposition is applied as a new version
         *     of the return and emits `return.disposition.created` and `return.updated` (plus
         *     `return.completed` for the one that completes the return), each carrying the return at
         *     that version.
         *
         *     `404` is answered at once only when `return_id` has the form of a server id (`ret_` and a
         *     ULID) and no stored return of your account has that id or that `external_id`; any other
         *     unknown identifier fails the request later with `return_not_found`, because the return may
         *     still be waiting in an earlier request.
         *
         *     Rate-limit scope: `ingest`.
         */
        post: operations["ingestDispositions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders (change feed)
         * @description Lists the account's orders as a change feed: ordered by a per-account change sequence,
         *     oldest change first, each order once, at the position of its latest change and in its
         *     latest state. An order moves to the end of the feed whenever it changes (an update, a
         *     shipment, a return of its lines).
         *
         *     To poll incrementally, store `next_cursor` (present on every page, also the last and empty
         *     ones) and call again with it: you get every order that changed since, and never miss a
         *     change, also while writes commit concurrently. An order can come again after a later
         *     change; upsert by `id` and keep the highest `version`.
         *
         *     The cursor carries the filters it was made with. Send the same filters with it (or none
         *     of them); a cursor sent with different filters is `400` with code `invalid_cursor`.
         *
         *     Rate-limit scope: `orders_read`.
         */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{identifier}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The order's server id (`ord_...`), tried first, or its `external_id`.
                 * @example ord_01JP9YVEKTNDE3MZX9B154EWRG
                 */
                identifier: components["parameters"]["OrderIdentifier"];
            };
            cookie?: never;
        };
        /**
         * Get an order
         * @description Returns one order, named by its server id (`ord_...`) or its `external_id`; the server id
         *     is tried first. An order that does not exist, or belongs to another account, is `404`.
         *
         *     Rate-limit scope: `orders_read`.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/returns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List returns (change feed)
         * @description Lists the account's returns as a change feed, with the same semantics as `GET /orders`:
         *     ordered by a per-account change sequence, each return once, at the position of its latest
         *     change (an update, a disposition) and in its latest state. Store `next_cursor` and call
         *     again to get everything that changed since; upsert by `id` and keep the highest `version`.
         *
         *     `order_id` takes the order's server id or its `external_id`. The cursor carries the filters
         *     it was made with; a cursor sent with different filters is `400` (`invalid_cursor`).
         *
         *     Rate-limit scope: `returns_read`.
         */
        get: operations["listReturns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/returns/{return_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The return's server id (`ret_...`), tried first, or its `external_id` (the RMA).
                 * @example RMA-10042
                 */
                return_id: components["parameters"]["ReturnIdentifier"];
            };
            cookie?: never;
        };
        /**
         * Get a return
         * @description Returns one return with its items and dispositions, named by its server id (`ret_...`) or
         *     its `external_id` (the RMA); the server id is tried first. A return that does not exist, or
         *     belongs to another account, is `404`.
         *
         *     Rate-limit scope: `returns_read`.
         */
        get: operations["getReturn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List ingest requests
         * @description Lists the account's ingest requests, newest first (by `accepted_at`), filtered by
         *     `status`, `kind` and the time they were accepted (`accepted_since` ≤ `accepted_at` <
         *     `accepted_until`, either bound optional). Records are kept for 30 days by default. The
         *     cursor carries the filters it was made with; a cursor sent with different filters is `400`
         *     (`invalid_cursor`).
         *
         *     Rate-limit scope: `requests_read`.
         */
        get: operations["listRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send failed or dead requests again, in bulk
         * @description Sends again, as `POST /requests/{request_id}/retry` does one by one, the account's requests
         *     of one `status` (`failed` or `dead`) accepted in a window, oldest first, at most `limit`
         *     (1-100, default 100) per call. Requests already retried (`retried_by` set) are skipped, so
         *     calling again with the same filter continues where the last call stopped: repeat while
         *     `has_more` is `true`. Each new request is linked to its original like the single form.
         *     The window is cut at the retention period (30 days by default).
         *
         *     Counts toward the rate limits as one ingest call per request it sends again (and, for
         *     inventory requests, one `ingest_inventory` call), all or none: when the scopes lack room
         *     for every selected request, the call is `429` and counts nothing; a smaller `limit` fits
         *     sooner. A call that selects nothing counts as one call.
         *
         *     `Idempotency-Key`: the same key with the same body within 24 hours answers the first
         *     answer again with `Idempotent-Replayed: true`; with another body it is `422`.
         *
         *     Rate-limit scope: `ingest` (and `ingest_inventory`), as described above.
         */
        post: operations["retryRequests"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's request queue
         * @description How many of the account's requests are open (`pending` or `processing`) and which one has
         *     waited longest: the figures a dashboard or an alert needs, without paging through
         *     `GET /requests`. Answered in constant time whatever the backlog: the open count is kept
         *     by the statements that accept and finish requests, and the oldest open request is the
         *     head of the account's queue.
         *
         *     `processing` counts the requests a worker has started and not finished, including those
         *     waiting for a retry after a transient error; the rest of `open` is `pending`.
         *
         *     Rate-limit scope: `requests_read`.
         */
        get: operations["getRequestQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get an ingest request
         * @description Returns the processing record of one ingest call: poll it (the `202` answer's `Location`,
         *     with `Retry-After` as a hint) until `status` is `succeeded`, `failed` or `dead`.
         *
         *     - `pending`: accepted, waiting for its turn (requests of one account are applied in the
         *       order they were accepted).
         *     - `processing`: a worker is applying it; retries after transient errors stay in this
         *       state, and `attempts` counts them.
         *     - `succeeded`: everything was applied; `result` has one item per submitted item.
         *     - `failed`: business rules rejected it and nothing was applied; `errors` lists every
         *       offending item with a JSON Pointer into the submitted body. Sending the same body again
         *       fails again: fix the data first.
         *     - `dead`: it could not be processed on any attempt; nothing was applied; `error` says
         *       so. Submitting the same body again is safe.
         *
         *     Records are kept for 30 days by default, then this is `404`.
         *
         *     A `failed` or `dead` request can be sent again as a new request:
         *     `POST /requests/{request_id}/retry`. `retry_of` and `retried_by` link the two records.
         *
         *     Rate-limit scope: `requests_read`.
         */
        get: operations["getRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/{request_id}/body": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get the body an ingest request was submitted with
         * @description Returns the JSON body of the ingest call that made this request, as it was accepted (the
         *     same members and values; whitespace is not kept, and member order is not guaranteed). The `pointer` of each
         *     entry in a `failed` record's `errors` points into this body, so a reader can show the
         *     offending fields in place. The record itself (`GET /requests/{request_id}`) leaves the body
         *     out: a 1,000-order body is about 700 kB that every poll would otherwise carry.
         *
         *     A dispositions request's return is a path parameter of its call, not part of the body.
         *
         *     Kept as long as the record (30 days by default); an unknown request, one of another
         *     account, or one past the retention period is `404`.
         *
         *     Rate-limit scope: `requests_read`.
         */
        get: operations["getRequestBody"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/{request_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a failed or dead request again
         * @description Accepts a new request with the same kind, path parameters (a dispositions batch's return)
         *     and body as this one, answered exactly like the ingest call that made it: `202` with a new
         *     `request_id`, `Location` and `Retry-After`. Takes no request body.
         *
         *     Only a `failed` or `dead` request can be sent again; `pending`, `processing` and
         *     `succeeded` are `409` (`request_not_retryable`). The original keeps its status; the new
         *     record names it in `retry_of` and the original names its newest retry in `retried_by`. A
         *     request already retried may be retried again (its `retried_by` moves to the newest). A
         *     `failed` request fails again unless what it depends on has changed since (an order
         *     ingested after a return that referred to it, say); a `dead` one is safe to send again.
         *
         *     `Idempotency-Key` works as on the ingest calls: the same key for the same request within
         *     24 hours answers the first `202` again with `Idempotent-Replayed: true`.
         *
         *     An unknown request, one of another account, or one past the retention period (30 days by
         *     default) is `404`.
         *
         *     Rate-limit scope: `ingest`, and `ingest_inventory` too when the request is an inventory
         *     request, exactly as the ingest call it repeats.
         */
        post: operations["retryRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inventory levels
         * @description Lists the account's current stock levels, one per (`location_id`, `sku`), ordered by
         *     `location_id`, then `sku`. Filter by location, by SKU or both (exact matches). The cursor
         *     carries the filters it was made with; a cursor sent with different filters is `400`
         *     (`invalid_cursor`).
         *
         *     Rate-limit scope: `returns_read` (shared with `GET /returns*`).
         */
        get: operations["listInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Lists the account's webhook subscriptions, newest first. Secrets are never listed.
         *
         *     Rate-limit scope: `webhooks`.
         */
        get: operations["listWebhookSubscriptions"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Subscribes an endpoint to return events. The answer carries the signing `secret`
         *     (`whsec_...`): store it now, it is shown again only when rotated.
         *
         *     The URL must use `https` and must not resolve to a private, loopback or link-local
         *     address; otherwise the call is `400` (`validation_failed`, with an error of code
         *     `url_not_allowed` at `/url`). Deployments started with
         *     `OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS=1` (development and tests) accept such addresses and
         *     plain `http`.
         *
         *     Rate-limit scope: `webhooks`.
         */
        post: operations["createWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description Returns one subscription (without its secret).
         *
         *     Rate-limit scope: `webhooks`.
         */
        get: operations["getWebhookSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Deletes a subscription. Attempts not yet made are dropped; nothing more is sent to its URL.
         *
         *     Rate-limit scope: `webhooks`.
         */
        delete: operations["deleteWebhookSubscription"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription
         * @description Changes the URL, the events, the description or the status of a subscription; fields
         *     left out keep their value, and `description: null` clears the description. Set
         *     `status: enabled` to resume a subscription that was disabled (by you, or because its
         *     endpoint answered `410`); events that occurred while it was disabled are not delivered.
         *     The same URL rules as on creation apply.
         *
         *     Rate-limit scope: `webhooks`.
         */
        patch: operations["updateWebhookSubscription"];
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Replaces the subscription's signing secret and returns the new one. For the next 24 hours
         *     every delivery carries two signatures in `webhook-signature`, one made with the new secret
         *     and one with the old, separated by a space, so you can switch your verifier without
         *     losing events. Takes no request body.
         *
         *     Rate-limit scope: `webhooks`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.test` event for this subscription, whatever its `events` and its
         *     `status`, and answers at once with the scheduled delivery attempt. It is signed and retried
         *     like any other event; follow it with `GET /webhook_subscriptions/{subscription_id}/deliveries`.
         *     Takes no request body.
         *
         *     Rate-limit scope: `webhooks`.
         */
        post: operations["testWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        /**
         * List recent delivery attempts
         * @description Lists the subscription's recent delivery attempts, newest first, one record per attempt:
         *     `pending` (scheduled, not made yet), `succeeded` (your endpoint answered `2xx`) or
         *     `failed` (any other status, a timeout or a connection error). A failed attempt shows
         *     when the next one is due in `next_attempt_at`, or `null` when there is none (the retry
         *     schedule is exhausted, the endpoint answered `410`, or the subscription was disabled).
         *     Attempts are kept for 30 days by default.
         *
         *     Rate-limit scope: `webhooks`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
                /**
                 * @description The delivery attempt's id (`whd_...`).
                 * @example whd_01JPSG5BNA823QRHXQJF5YY1V2
                 */
                delivery_id: components["parameters"]["DeliveryIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery's event again
         * @description Queues a new delivery of this delivery attempt's event to this subscription, now, and
         *     answers with it (trigger `retry`, attempt 1). It is signed with the current secret, sent
         *     with the same `webhook-id` (the event id) and retried on the usual schedule. Any attempt
         *     of the event can be named, whatever its status. Takes no request body.
         *
         *     A disabled subscription is `409` (`subscription_disabled`), except for `webhook.test`
         *     events; enable it with `PATCH` first. An attempt older than the retention period (30 days
         *     by default) is `404`.
         *
         *     Rate-limit scope: `webhooks`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a window of events again
         * @description Starts a recovery: a background job that queues, for this subscription, a new delivery
         *     (trigger `recover`) of every event created in `[since, until)` whose type the
         *     subscription receives now, whether or not it was delivered before. Use it after your
         *     endpoint was down for longer than the retry schedule (about a day). Each event keeps its
         *     `id` (the `webhook-id`), so a receiver that deduplicates processes it once.
         *
         *     Answers `202` at once with the recovery; follow it with the `Location` header.
         *     Events older than the retention period (30 days by default) no longer exist and are not
         *     sent: `since` may be at most that long ago (else `400`), and `until` must be later than
         *     `since`. A disabled subscription is `409` (`subscription_disabled`): enable it with
         *     `PATCH`, then recover.
         *
         *     Rate-limit scope: `webhooks`.
         */
        post: operations["recoverWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_subscriptions/{subscription_id}/recoveries/{recovery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
                /**
                 * @description The recovery's id (`whr_...`).
                 * @example whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R
                 */
                recovery_id: components["parameters"]["RecoveryIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get a recovery
         * @description Returns a recovery and its progress: `running` while events are being queued, then
         *     `completed` with the number queued. Recoveries are kept for the retention period (30 days
         *     by default).
         *
         *     Rate-limit scope: `webhooks`.
         */
        get: operations["getWebhookRecovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events (feed)
         * @description Lists the account's events, oldest first and newest last: the same objects the webhook
         *     deliveries carry (same `id`, which is their `webhook-id`, same `type`, `created_at` and
         *     `data`), whether or not a subscription received them. Use it to pull events instead of
         *     receiving them (an endpoint behind a firewall), or to rebuild state after an outage.
         *
         *     It is a feed like `GET /orders`: ordered by a per-account sequence handed out in commit
         *     order, so storing `next_cursor` (present on every page, also the last and empty ones) and
         *     calling again with it gives every event committed since, and never misses one, also while
         *     writes commit concurrently. An event is listed once and never changes.
         *
         *     `webhook.test` events are not events of the account's data: they are sent to one
         *     subscription only, and are neither listed here nor found by `GET /events/{event_id}`.
         *
         *     Events are kept for the request retention period (30 days by default); older ones drop
         *     out of the feed.
         *
         *     The cursor carries the filters it was made with (`type` and `created_since`). Send the same
         *     filters with it (or none of them); a cursor sent with different filters is `400` with code
         *     `invalid_cursor`.
         *
         *     Rate-limit scope: `events_read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id (`evt_...`), the `webhook-id` of its deliveries.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                event_id: components["parameters"]["EventIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get an event
         * @description Returns one event by its id (`evt_...`, the `webhook-id` of its deliveries), as webhook
         *     deliveries carry it. An event that does not exist, belongs to another account, is a
         *     `webhook.test` event or is older than the retention period (30 days by default) is `404`.
         *
         *     Rate-limit scope: `events_read`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Lists the account's API keys, newest first, revoked and expired ones included (with
         *     `status`, `revoked_at` and `expires_at`), so you can audit who could call the API and when
         *     each key was last used. Secrets are never listed; `prefix` tells keys apart.
         *
         *     Permission: `api_keys:read`. Rate-limit scope: `api_keys`.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Creates a key with a name, the permissions it grants and, optionally, when it expires. The
         *     answer carries the `secret` (`oisr_...`): store it now, it is shown again only when the key
         *     is rotated, and OISR keeps only its hash.
         *
         *     A key never grants more than the key that creates it: asking for a permission the calling
         *     key does not hold is `403` (`insufficient_permission`, naming that permission), and a
         *     calling key that expires cannot create one that outlives it. `expires_at` must be in the
         *     future and at most 366 days ahead; leave it out for a key that lasts until revoked (only a
         *     key without expiry may create one). Those rules are `400` (`validation_failed`, code
         *     `out_of_range` at `/expires_at`). Nothing is stored when the call is refused.
         *
         *     Permission: `api_keys:write`. Rate-limit scope: `api_keys`.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{api_key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's id (`key_...`), never its secret.
                 * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                 */
                api_key_id: components["parameters"]["ApiKeyIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get an API key
         * @description Returns one key (without its secret). A key of another account is `404`.
         *
         *     Permission: `api_keys:read`. Rate-limit scope: `api_keys`.
         */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes a key at once: from the answer on, every server process refuses each of its
         *     secrets (`401`); no process caches keys. The key stays listed, with `status: revoked` and
         *     `revoked_at`. Revoking an already revoked key is `409` (`api_key_inactive`); revoking the
         *     account's last active key that holds `api_keys:write` is `409` (`last_admin_key`), so an
         *     account can never lock itself out (an operator can still revoke it with
         *     `oisr-server keys revoke`). A key may revoke itself.
         *
         *     Permission: `api_keys:write`. Rate-limit scope: `api_keys`.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{api_key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's id (`key_...`), never its secret.
                 * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                 */
                api_key_id: components["parameters"]["ApiKeyIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key's secret
         * @description Gives the key a new secret, returned once in this answer. The key keeps its id, name,
         *     permissions and expiry. The previous secret keeps working for `overlap_seconds` (default
         *     24 hours, at most 7 days; `0` ends it at once), long enough to deploy the new one, and is
         *     refused (`401` `api_key_expired`) afterwards; `previous_secret_expires_at` says when.
         *     Secrets replaced by earlier rotations keep their own end. The body is optional.
         *
         *     Rotating hands over a secret of the key, so the calling key may rotate only keys that
         *     grant nothing it lacks: rotating a key that holds a permission the caller does not is `403`
         *     (`insufficient_permission`, naming it). Rotating a revoked or expired key is `409`
         *     (`api_key_inactive`): create a new key instead. Rotating the account's last admin key is
         *     allowed (the caller receives the new secret), which is how an account with one admin key
         *     recovers from a leak.
         *
         *     Permission: `api_keys:write`. Rate-limit scope: `api_keys`.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get this API document
         * @description Returns this OpenAPI document as JSON. No authentication and no rate limit.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `200` while the process is alive, without touching the database. Use it as a
         *     liveness probe. No authentication and no rate limit.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers `200` when the database is reachable and fully migrated, else `503`. Use it as a
         *     readiness probe. No authentication and no rate limit. A read replica, when configured, is
         *     reported in `read_replica` but does not make the answer `503`.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "return.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * return.created
         * @description Sent when a return is created (its first version). `data.object` is the return at that
         *     version. Acknowledge with any `2xx` within a few seconds and do the work asynchronously.
         */
        post: operations["onReturnCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "return.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * return.updated
         * @description Sent for every new version of a return after the first: a status change, changed items or
         *     tracking, and each change made by dispositions. `data.object` is the return at that
         *     version; compare `version` with what you stored, since deliveries are not ordered.
         */
        post: operations["onReturnUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "return.disposition.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * return.disposition.created
         * @description Sent for each disposition recorded for a return. `data.object` is the return at the
         *     version that added the disposition; the disposition is the one in `data.object.dispositions`
         *     created last.
         */
        post: operations["onReturnDispositionCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "return.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * return.completed
         * @description Sent when a return enters `completed` (every item fully dispositioned), in addition to the
         *     `return.updated` of the same version. `data.object` is the return at that version.
         */
        post: operations["onReturnCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "return.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * return.cancelled
         * @description Sent when a return enters `cancelled`, in addition to the `return.updated` of the same
         *     version. Its quantities no longer count toward the order's `quantity_returned`.
         *     `data.object` is the return at that version.
         */
        post: operations["onReturnCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "request.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * request.succeeded
         * @description Sent when an ingest request was applied (status `succeeded`), if the subscription's `events`
         *     list it. `data.object` is the request record; `result.items` is left out for batches of more
         *     than 100 items (read `url`). Written in the transaction that applies the request, so it is
         *     never sent for work that rolled back.
         */
        post: operations["onRequestSucceeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "request.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * request.failed
         * @description Sent when business rules rejected an ingest request (status `failed`; nothing was applied),
         *     if the subscription's `events` list it. `data.object` is the request record with the first
         *     100 `errors` (`errors_total` counts them all). React to it instead of polling.
         */
        post: operations["onRequestFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "request.dead": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * request.dead
         * @description Sent when an ingest request could not be processed after every attempt (status `dead`;
         *     nothing was applied, and resubmitting the same body is safe), if the subscription's `events`
         *     list it.
         */
        post: operations["onRequestDead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Sent by `POST /webhook_subscriptions/{subscription_id}/test`, whatever the subscription's
         *     `events`. Signed and retried like every other event; use it to check your endpoint and
         *     your signature verification.
         */
        post: operations["onWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description A decimal amount as a string (`"19.99"`), up to 15 integer digits and 4 decimals, in the
         *     order's `currency`. Returned as sent.
         * @example 19.99
         */
        Money: string;
        /**
         * @description ISO 4217 currency code, upper case.
         * @example USD
         */
        Currency: string;
        /**
         * @description Your own string key-value pairs, returned as sent. At most 50 keys of 1-40 characters, values of up to 500 characters.
         * @example {
         *       "shopify_channel": "online_store"
         *     }
         */
        Metadata: {
            [key: string]: string;
        };
        /**
         * @description Your identifier for the resource, unique per account and resource type (1-128 characters).
         * @example 5123456789012
         */
        ExternalId: string;
        /**
         * @description W3C trace id, 32 lowercase hex digits.
         * @example 5e05a0f9b6eac538ba9702f9c2a31970
         */
        TraceId: string;
        /**
         * Format: uuid
         * @description Id of an ingest request (a UUID, version 7).
         * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
         */
        RequestId: string;
        /**
         * @description Server id of an order.
         * @example ord_01JP9YVEKTNDE3MZX9B154EWRG
         */
        OrderId: string;
        /**
         * @description Server id of a shipment.
         * @example shp_01JPD1ZMTYV5XGDN9VT84TDXG9
         */
        ShipmentId: string;
        /**
         * @description Server id of a return.
         * @example ret_01JPSG5BNAPHTDHY3NB7Z638J1
         */
        ReturnId: string;
        /**
         * @description Server id of a disposition.
         * @example dsp_01JQC39W88837RWRG5BJV27V5C
         */
        DispositionId: string;
        /**
         * @description Server id of a webhook subscription.
         * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
         */
        WebhookSubscriptionId: string;
        /**
         * @description Id of an event; the `webhook-id` of its deliveries.
         * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
         */
        EventId: string;
        /**
         * @description Server id of a webhook delivery attempt.
         * @example whd_01JPSG5BNA823QRHXQJF5YY1V2
         */
        WebhookDeliveryId: string;
        /**
         * @description Version of the resource, 1 on creation and higher after every change. Consumers of change
         *     feeds and webhooks keep the highest version they have seen.
         * @example 3
         */
        Version: number;
        /**
         * Format: date-time
         * @description When OISR created the resource.
         * @example 2025-03-14T09:13:05.402Z
         */
        CreatedAt: string;
        /**
         * Format: date-time
         * @description When OISR last changed the resource.
         * @example 2025-03-20T10:04:12.330Z
         */
        UpdatedAt: string;
        /** @description A postal address. */
        AddressInput: {
            name: string;
            company?: string;
            line1: string;
            line2?: string;
            city: string;
            /** @description State, province or region. */
            region?: string;
            postal_code?: string;
            /** @description ISO 3166-1 alpha-2 country code, upper case. */
            country: string;
            phone?: string;
            /** Format: email */
            email?: string;
        };
        /** @description A postal address as stored; members that were not sent are `null`. */
        Address: {
            name: string;
            company: string | null;
            line1: string;
            line2: string | null;
            city: string;
            /** @description State, province or region. */
            region: string | null;
            postal_code: string | null;
            /** @description ISO 3166-1 alpha-2 country code. */
            country: string;
            phone: string | null;
            email: string | null;
        };
        /** @description The buyer. Every field is optional. */
        CustomerInput: {
            name?: string;
            /** Format: email */
            email?: string;
            phone?: string;
        };
        /** @description The buyer as stored; members that were not sent are `null`. */
        Customer: {
            name: string | null;
            email: string | null;
            phone: string | null;
        };
        /** @description Order totals in the order's currency, as computed by your system (OISR does not recompute them). */
        OrderTotals: {
            subtotal: components["schemas"]["Money"];
            discount: components["schemas"]["Money"];
            tax: components["schemas"]["Money"];
            shipping: components["schemas"]["Money"];
            total: components["schemas"]["Money"];
        };
        /** @description The return shipment's carrier and tracking number. Returned exactly as sent. */
        ReturnTracking: {
            carrier: string;
            tracking_number: string;
        };
        /**
         * @description The status you set: `open`, `on_hold` or `cancelled`; left out, it is `open` (this clears a
         *     hold). An order with shipments cannot be cancelled.
         * @enum {string}
         */
        OrderInputStatus: "open" | "on_hold" | "cancelled";
        /**
         * @description - `cancelled`: you cancelled it.
         *     - `on_hold`: you hold it (shown even when partly shipped: a hold matters more to a
         *       warehouse than partial progress).
         *     - `shipped`: every line is fully shipped.
         *     - `partially_shipped`: some quantity is shipped.
         *     - `open`: nothing shipped yet.
         *
         *     `open`, `on_hold` and `cancelled` come from your input; `partially_shipped` and `shipped`
         *     are derived from shipments, in that order of precedence.
         * @enum {string}
         */
        OrderStatus: "open" | "on_hold" | "partially_shipped" | "shipped" | "cancelled";
        OrderLineInput: {
            /** @description Your id of the line, unique within the order. Shipments and returns refer to it. */
            line_id: string;
            sku: string;
            /** @description Product name as shown to the buyer. */
            name?: string;
            /** @description Ordered quantity. Cannot drop below the quantity already shipped or returned. */
            quantity: number;
            unit_price: components["schemas"]["Money"];
        };
        /**
         * @description The complete current state of an order, upserted by `external_id`. Optional fields left out
         *     are cleared on update. Server-owned fields (`id`, `version`, derived quantities, `shipments`,
         *     timestamps) are not accepted.
         */
        OrderInput: {
            external_id: components["schemas"]["ExternalId"];
            /** @description The number shown to the buyer, e.g. `#1042`. */
            order_number?: string;
            /** @description The sales channel or system the order comes from, e.g. `shopify` or `pos-12`. */
            source: string;
            status?: components["schemas"]["OrderInputStatus"];
            currency: components["schemas"]["Currency"];
            /**
             * Format: date-time
             * @description When the buyer placed the order.
             */
            placed_at: string;
            customer?: components["schemas"]["CustomerInput"];
            ship_to: components["schemas"]["AddressInput"];
            bill_to?: components["schemas"]["AddressInput"];
            shipping_method?: string;
            /** @description 1-500 lines, `line_id` unique. A line with shipped or returned quantity cannot be removed. */
            lines: components["schemas"]["OrderLineInput"][];
            totals?: components["schemas"]["OrderTotals"];
            metadata?: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description When the order last changed in your system. An update that is not newer than the stored
             *     value changes nothing (outcome `stale`).
             */
            source_updated_at: string;
        };
        OrderLine: {
            /** @description Your id of the line, unique within the order. */
            line_id: string;
            sku: string;
            name: string | null;
            /** @description Ordered quantity. */
            quantity: number;
            unit_price: components["schemas"]["Money"];
            /** @description Sum of this line over the order's shipments. */
            readonly quantity_shipped: number;
            /** @description Sum of this line over the order's active returns (all but `rejected` and `cancelled`). */
            readonly quantity_returned: number;
        };
        OrderShipmentLine: {
            line_id: string;
            quantity: number;
        };
        /**
         * @description A shipment of the order, as recorded through `POST /ingest/shipments`, in its latest
         *     state. Optional fields without a value are `null`.
         */
        OrderShipment: {
            id: components["schemas"]["ShipmentId"];
            external_id: string;
            carrier: string;
            service: string | null;
            tracking_number: string | null;
            /** Format: uri */
            tracking_url: string | null;
            /** Format: date-time */
            shipped_at: string;
            /** @description The location the shipment left from. */
            location_id: string | null;
            lines: components["schemas"]["OrderShipmentLine"][];
            created_at: components["schemas"]["CreatedAt"];
        };
        /** @description An order as stored. Every field is present; optional fields without a value are `null`. */
        Order: {
            id: components["schemas"]["OrderId"];
            external_id: string;
            order_number: string | null;
            source: string;
            status: components["schemas"]["OrderStatus"];
            currency: components["schemas"]["Currency"];
            /** Format: date-time */
            placed_at: string;
            customer: components["schemas"]["Customer"] | null;
            ship_to: components["schemas"]["Address"];
            bill_to: components["schemas"]["Address"] | null;
            shipping_method: string | null;
            lines: components["schemas"]["OrderLine"][];
            totals: components["schemas"]["OrderTotals"] | null;
            metadata: components["schemas"]["Metadata"] | null;
            /** Format: date-time */
            source_updated_at: string;
            /** @description The order's shipments, oldest first; empty when nothing has shipped. */
            readonly shipments: components["schemas"]["OrderShipment"][];
            version: components["schemas"]["Version"];
            created_at: components["schemas"]["CreatedAt"];
            updated_at: components["schemas"]["UpdatedAt"];
        };
        OrdersIngestBody: {
            /** @description 1-1000 orders, applied in this order. */
            orders: components["schemas"]["OrderInput"][];
        };
        OrderPage: {
            data: components["schemas"]["Order"][];
            /** @description Cursor for the next page, present on every page (also the last and empty ones). Store it to poll for later changes. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        InventoryItemInput: {
            sku: string;
            /** @description Units physically at the location. */
            on_hand: number;
            /** @description Units that can be sold. */
            available: number;
            /** @description Units held for orders, if your system reports it. */
            reserved?: number;
        };
        InventorySnapshotInput: {
            /** @description Your id of the location (warehouse, store). */
            location_id: string;
            /**
             * Format: date-time
             * @description When the counts were true. A level is only replaced by a newer `as_of`.
             */
            as_of: string;
            /**
             * @description `partial` updates the listed SKUs only; `full` is the location's complete stock, and
             *     SKUs of the location that it does not list drop to zero as of `as_of`.
             * @enum {string}
             */
            mode: "partial" | "full";
            items: components["schemas"]["InventoryItemInput"][];
        };
        InventoryIngestBody: {
            /** @description 1-1000 snapshots, applied in this order. */
            snapshots: components["schemas"]["InventorySnapshotInput"][];
        };
        /** @description The stock of one SKU at one location, from the newest snapshot that covered it. */
        InventoryLevel: {
            location_id: string;
            sku: string;
            on_hand: number;
            available: number;
            /** @description `null` when the snapshot did not report it; `0` when a full snapshot dropped the SKU to zero. */
            reserved: number | null;
            /**
             * Format: date-time
             * @description The `as_of` of the snapshot these numbers come from.
             */
            as_of: string;
            updated_at: components["schemas"]["UpdatedAt"];
        };
        InventoryPage: {
            data: components["schemas"]["InventoryLevel"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        ShipmentLineInput: {
            /** @description The order line shipped. */
            line_id: string;
            quantity: number;
        };
        /** @description A shipment of order lines, identified by `external_id`. */
        ShipmentInput: {
            external_id: components["schemas"]["ExternalId"];
            /** @description The order's server id or its `external_id`. */
            order_id: string;
            carrier: string;
            service?: string;
            tracking_number?: string;
            /** Format: uri */
            tracking_url?: string;
            /** Format: date-time */
            shipped_at: string;
            /** @description The location the shipment left from. */
            location_id?: string;
            /** @description 1-500 lines; at most one entry per `line_id`. */
            lines: components["schemas"]["ShipmentLineInput"][];
        };
        ShipmentsIngestBody: {
            /** @description 1-1000 shipments, applied in this order. */
            shipments: components["schemas"]["ShipmentInput"][];
        };
        /**
         * @description Why the item is returned.
         * @enum {string}
         */
        ReasonCode: "damaged" | "defective" | "wrong_item" | "not_as_described" | "no_longer_needed" | "size_or_fit" | "other";
        /**
         * @description State machine of a return:
         *
         *     ```
         *     requested  -> approved | rejected | cancelled
         *     approved   -> in_transit | received | cancelled
         *     in_transit -> received
         *     received   -> completed
         *     completed, rejected, cancelled: final
         *     ```
         *
         *     You may create a return in any state but `completed`; updates must follow the arrows
         *     (sending the current status again is no transition). The first disposition moves a return
         *     that is not yet `received` to `received`; when every item is fully dispositioned it
         *     becomes `completed` (also when an update lowers a received return's items to what is
         *     already dispositioned). Only `rejected` and `cancelled` returns are inactive: their
         *     quantities do not count toward the order's `quantity_returned`.
         * @enum {string}
         */
        ReturnStatus: "requested" | "approved" | "rejected" | "cancelled" | "in_transit" | "received" | "completed";
        /**
         * @description Any `ReturnStatus` but `completed`, which only dispositions reach. Left out, a new return
         *     is `requested` and an existing return keeps its status.
         * @enum {string}
         */
        ReturnInputStatus: "requested" | "approved" | "rejected" | "cancelled" | "in_transit" | "received";
        ReturnItemInput: {
            /** @description The order line returned; at most one item per line. */
            line_id: string;
            /** @description Optional; taken from the order line when left out. */
            sku?: string;
            /**
             * @description Units returned. Across the order's active returns a line's returned quantity never
             *     exceeds its ordered quantity, and an item cannot drop below what is already
             *     dispositioned.
             */
            quantity: number;
            reason_code: components["schemas"]["ReasonCode"];
            note?: string;
        };
        /**
         * @description The complete current state of a return (RMA), upserted by `external_id`. Optional fields
         *     left out are cleared on update, except `status` (see `ReturnInputStatus`).
         */
        ReturnInput: {
            external_id: components["schemas"]["ExternalId"];
            /** @description The order's server id or its `external_id`. */
            order_id: string;
            status?: components["schemas"]["ReturnInputStatus"];
            /** @description Free-text reason for the whole return. */
            reason?: string;
            customer_note?: string;
            /** @description 1-500 items. */
            items: components["schemas"]["ReturnItemInput"][];
            tracking?: components["schemas"]["ReturnTracking"];
            /**
             * Format: date-time
             * @description When the customer asked for the return.
             */
            requested_at: string;
            /**
             * Format: date-time
             * @description When the return last changed in your system. An update that is not newer than the
             *     stored value changes nothing (outcome `stale`).
             */
            source_updated_at: string;
        };
        ReturnItem: {
            line_id: string;
            sku: string;
            quantity: number;
            reason_code: components["schemas"]["ReasonCode"];
            note: string | null;
            /** @description Sum of this line over the return's dispositions. */
            readonly quantity_dispositioned: number;
        };
        /**
         * @description A return as stored, with its dispositions. Every field is present; optional fields without
         *     a value are `null`.
         */
        Return: {
            id: components["schemas"]["ReturnId"];
            /** @description Your RMA number. */
            external_id: string;
            order_id: components["schemas"]["OrderId"];
            /** @description The order's `external_id`. */
            readonly order_external_id: string;
            status: components["schemas"]["ReturnStatus"];
            reason: string | null;
            customer_note: string | null;
            items: components["schemas"]["ReturnItem"][];
            tracking: components["schemas"]["ReturnTracking"] | null;
            /** Format: date-time */
            requested_at: string;
            /**
             * Format: date-time
             * @description When OISR recorded the return entering `received` (by your status update or by its
             *     first disposition); `null` before.
             */
            readonly received_at: string | null;
            /**
             * Format: date-time
             * @description When OISR recorded the return entering `completed`; `null` before.
             */
            readonly completed_at: string | null;
            /** @description The return's dispositions, in the order they were recorded. */
            readonly dispositions: components["schemas"]["Disposition"][];
            /** Format: date-time */
            source_updated_at: string;
            version: components["schemas"]["Version"];
            created_at: components["schemas"]["CreatedAt"];
            updated_at: components["schemas"]["UpdatedAt"];
        };
        ReturnsIngestBody: {
            /** @description 1-1000 returns, applied in this order. */
            returns: components["schemas"]["ReturnInput"][];
        };
        ReturnPage: {
            data: components["schemas"]["Return"][];
            /** @description Cursor for the next page, present on every page (also the last and empty ones). Store it to poll for later changes. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        /**
         * @description What happens to the returned units.
         * @enum {string}
         */
        DispositionOutcome: "restock" | "refurbish" | "quarantine" | "return_to_vendor" | "donate" | "recycle" | "dispose" | "missing";
        /**
         * @description The condition the units were found in.
         * @enum {string}
         */
        ItemCondition: "new" | "like_new" | "used" | "damaged" | "unsellable";
        DispositionInput: {
            /**
             * @description Your id of the disposition, unique within the return. A disposition whose `external_id`
             *     is already recorded is `unchanged`; without one, every submission records a new
             *     disposition.
             */
            external_id?: string;
            /** @description The return item's `line_id`. */
            line_id: string;
            /** @description Units decided. Per line, dispositioned never exceeds returned. */
            quantity: number;
            outcome: components["schemas"]["DispositionOutcome"];
            condition?: components["schemas"]["ItemCondition"];
            /** @description Where the units were inspected or put away. */
            location_id?: string;
            /** Format: date-time */
            decided_at: string;
            note?: string;
        };
        Disposition: {
            id: components["schemas"]["DispositionId"];
            return_id: components["schemas"]["ReturnId"];
            external_id: string | null;
            line_id: string;
            quantity: number;
            outcome: components["schemas"]["DispositionOutcome"];
            condition: components["schemas"]["ItemCondition"] | null;
            location_id: string | null;
            /** Format: date-time */
            decided_at: string;
            note: string | null;
            created_at: components["schemas"]["CreatedAt"];
        };
        DispositionsIngestBody: {
            /** @description 1-1000 dispositions, applied in this order. */
            dispositions: components["schemas"]["DispositionInput"][];
        };
        /**
         * @description The acknowledgment of an ingest call. An idempotent replay answers the original body
         *     unchanged (same `request_id` and `trace_id`), while its `X-Trace-Id` header is the
         *     replay's own.
         */
        IngestAccepted: {
            /** @description A human-readable summary. */
            message: string;
            request_id: components["schemas"]["RequestId"];
            trace_id: components["schemas"]["TraceId"];
        };
        RequestQueue: {
            /** @description Requests `pending` or `processing`. */
            open: number;
            /** @description Open requests no worker has started yet. */
            pending: number;
            /** @description Open requests a worker has started, including those waiting for a retry. */
            processing: number;
            /** @description The open request accepted first (the head of the queue), or `null` when none is open. */
            oldest_open: null | {
                /** Format: uuid */
                request_id: string;
                /** @enum {string} */
                status: "pending" | "processing";
                /** Format: date-time */
                accepted_at: string;
            };
        };
        /**
         * @description The body of an ingest call as it was accepted: one of the five ingest bodies, the one of
         *     the request's `kind` (`orders`, `inventory`, `shipments`, `returns`, `dispositions`).
         */
        SubmittedBody: components["schemas"]["OrdersIngestBody"] | components["schemas"]["InventoryIngestBody"] | components["schemas"]["ShipmentsIngestBody"] | components["schemas"]["ReturnsIngestBody"] | components["schemas"]["DispositionsIngestBody"];
        /**
         * @description The ingest endpoint the request was made to.
         * @enum {string}
         */
        RequestKind: "orders" | "inventory" | "shipments" | "returns" | "dispositions";
        /**
         * @description `pending` -> `processing` -> `succeeded` | `failed` | `dead`. Retries after transient
         *     errors stay in `processing`. `succeeded`, `failed` and `dead` are final.
         * @enum {string}
         */
        RequestStatus: "pending" | "processing" | "succeeded" | "failed" | "dead";
        /** @description What happened to one submitted item. */
        RequestResultItem: {
            /** @description Position of the item in the submitted array. */
            index: number;
            /**
             * @description The kind of resource; for `inventory_snapshot`, `id` is the snapshot's `location_id`.
             * @enum {string}
             */
            type: "order" | "inventory_snapshot" | "shipment" | "return" | "disposition";
            /** @description The server id of the resource (`ord_...`, `shp_...`, `ret_...`, `dsp_...`), or the `location_id` of an inventory snapshot. */
            id: string;
            /**
             * @description - `created`: a new resource.
             *     - `updated`: an existing resource changed (a new `version`).
             *     - `unchanged`: the item equals what is stored.
             *     - `stale`: `source_updated_at` (or `as_of`) is not newer than the stored one; nothing changed.
             * @enum {string}
             */
            outcome: "created" | "updated" | "unchanged" | "stale";
        };
        /** @description The outcome of a succeeded request; the four counts add up to `item_count`. */
        RequestResult: {
            created: number;
            updated: number;
            unchanged: number;
            stale: number;
            /** @description One entry per submitted item, in submission order. */
            items: components["schemas"]["RequestResultItem"][];
        };
        /**
         * @description | code | meaning |
         *     |---|---|
         *     | `order_not_found` | no order with that id or `external_id` |
         *     | `order_cancelled` | the order is cancelled |
         *     | `order_has_shipments` | an order with shipments cannot be cancelled |
         *     | `line_not_found` | the order has no line with that `line_id` |
         *     | `duplicate_line_id` | the same `line_id` appears twice in one order, shipment or return |
         *     | `line_below_shipped` | a line's quantity would drop below its shipped quantity |
         *     | `line_removal_forbidden` | a line with shipped or returned quantity would be removed |
         *     | `quantity_exceeds_ordered` | a shipment would ship more than was ordered |
         *     | `shipment_conflict` | a shipment with this `external_id` exists for another order or with other lines |
         *     | `return_not_found` | no return with that id or `external_id` |
         *     | `return_closed` | the return is `rejected` or `cancelled` |
         *     | `return_quantity_exceeded` | active returns would exceed the ordered quantity of a line (also when an order update lowers a line below its returned quantity) |
         *     | `invalid_status_transition` | the status change is not allowed by the state machine |
         *     | `line_not_in_return` | the return has no item with that `line_id` |
         *     | `disposition_quantity_exceeded` | dispositions would exceed the returned quantity of a line |
         *     | `item_below_dispositioned` | a return item's quantity would drop below what is dispositioned |
         *     | `currency_mismatch` | an order's currency would change after it has shipments or returns |
         * @enum {string}
         */
        ItemErrorCode: "order_not_found" | "order_cancelled" | "order_has_shipments" | "line_not_found" | "duplicate_line_id" | "line_below_shipped" | "line_removal_forbidden" | "quantity_exceeds_ordered" | "shipment_conflict" | "return_not_found" | "return_closed" | "return_quantity_exceeded" | "invalid_status_transition" | "line_not_in_return" | "disposition_quantity_exceeded" | "item_below_dispositioned" | "currency_mismatch";
        /** @description A business rule that an item of a `failed` request breaks. */
        ItemError: {
            /**
             * @description JSON Pointer (RFC 6901) into the submitted body, to the offending value, e.g.
             *     `/returns/3/items/0/quantity`. For dispositions, an error about the return named in the
             *     path (`return_not_found`, `return_closed`) has the empty pointer `""` (the whole body).
             */
            pointer: string;
            code: components["schemas"]["ItemErrorCode"];
            /** @description A human-readable explanation. */
            message: string;
        };
        /** @description Why a `dead` request could not be processed. No internals are exposed; the `trace_id` leads to the logs. */
        DeadError: {
            /** @enum {string} */
            code: "processing_failed";
            message: string;
        };
        /** @description The processing record of one ingest call. */
        RequestRecord: {
            request_id: components["schemas"]["RequestId"];
            /**
             * @description The request this one sends again (`POST /requests/{request_id}/retry` or the bulk
             *     form); `null` for a request submitted through an ingest call.
             */
            retry_of: components["schemas"]["RequestId"] | null;
            /**
             * @description The latest request that sends this one again, `null` until it is retried. A request
             *     retried more than once points at its newest retry; each retry names this one in
             *     `retry_of`, so the whole history is a walk along the two links.
             */
            retried_by: components["schemas"]["RequestId"] | null;
            /** @description The API key that submitted the request; `null` for requests accepted before API keys existed. */
            api_key_id: components["schemas"]["ApiKeyId"] | null;
            kind: components["schemas"]["RequestKind"];
            status: components["schemas"]["RequestStatus"];
            trace_id: components["schemas"]["TraceId"];
            /** @description The `Idempotency-Key` sent with the call, if any. */
            idempotency_key: string | null;
            /** @description Items in the submitted batch (orders, snapshots, shipments, returns or dispositions). */
            item_count: number;
            /**
             * Format: date-time
             * @description When the call was answered `202`.
             */
            accepted_at: string;
            /**
             * Format: date-time
             * @description When processing first started; `null` while `pending`.
             */
            started_at: string | null;
            /**
             * Format: date-time
             * @description When the request reached a final status; `null` before.
             */
            completed_at: string | null;
            /** @description Processing attempts so far. */
            attempts: number;
            /** @description On `succeeded`, what happened to each item; `null` otherwise. */
            result: components["schemas"]["RequestResult"] | null;
            /** @description On `failed`, every offending item (at least one); empty otherwise. */
            errors: components["schemas"]["ItemError"][];
            /** @description On `dead`, the reason; `null` otherwise. */
            error: components["schemas"]["DeadError"] | null;
        };
        /** @description Which requests `POST /requests/retry` sends again. */
        RetryRequestsBody: {
            /**
             * @description The status of the requests to send again.
             * @enum {string}
             */
            status: "failed" | "dead";
            /**
             * Format: date-time
             * @description Requests accepted at or after this instant.
             */
            accepted_since: string;
            /**
             * Format: date-time
             * @description Requests accepted before this instant; now when left out.
             */
            accepted_until?: string;
            kind?: components["schemas"]["RequestKind"];
            /**
             * @description Most requests sent again by this call.
             * @default 100
             */
            limit: number;
        };
        RetryRequestsResult: {
            /** @description How many requests were sent again (the length of `retries`). */
            count: number;
            /** @description Each new request and the request it sends again, oldest original first. */
            retries: {
                request_id: components["schemas"]["RequestId"];
                retry_of: components["schemas"]["RequestId"];
            }[];
            /** @description Whether more requests matched than `limit`; call again with the same body to send them. */
            has_more: boolean;
        };
        RequestPage: {
            data: components["schemas"]["RequestRecord"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        /**
         * @description What a key may do. Each operation names the one it needs in its `security` requirement.
         *
         *     | permission | calls |
         *     |---|---|
         *     | `ingest:write` | `POST /ingest/*` |
         *     | `orders:read` | `GET /orders*` |
         *     | `returns:read` | `GET /returns*` |
         *     | `inventory:read` | `GET /inventory*` |
         *     | `requests:read` | `GET /requests*` |
         *     | `events:read` | `GET /events*` |
         *     | `webhooks:read` | `GET /webhook_subscriptions*` (subscriptions, deliveries, recoveries) |
         *     | `webhooks:write` | every other `/webhook_subscriptions*` call; includes `webhooks:read` |
         *     | `api_keys:read` | `GET /api_keys*` |
         *     | `api_keys:write` | create, rotate and revoke keys; includes `api_keys:read` |
         *
         *     A `:write` permission includes the `:read` of the same resource; nothing else implies
         *     anything. `webhooks:write` can send return and request events to any URL, so grant it as
         *     you would `returns:read` and `requests:read`. An ingest integration that waits for its
         *     requests needs `requests:read` as well as `ingest:write`.
         * @enum {string}
         */
        Permission: "ingest:write" | "orders:read" | "returns:read" | "inventory:read" | "requests:read" | "events:read" | "webhooks:read" | "webhooks:write" | "api_keys:read" | "api_keys:write";
        /**
         * @description Server id of an API key. Shown in request records, events and logs instead of the secret.
         * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
         */
        ApiKeyId: string;
        ApiKeyCreate: {
            /** @description What the key is for, e.g. the integration that uses it. */
            name: string;
            /** @description What the key may do; at least one, each at most once, none the calling key lacks. */
            permissions: components["schemas"]["Permission"][];
            /**
             * Format: date-time
             * @description When the key stops working: in the future and at most 366 days ahead, and not after
             *     the calling key's own expiry. Leave it out for a key that works until revoked.
             */
            expires_at?: string;
        };
        ApiKeyRotate: {
            /** @description How long the previous secret keeps working, 86400 (24 hours) when left out; `0` refuses it at once. */
            overlap_seconds?: number;
        };
        /** @description An API key, without its secret. */
        ApiKey: {
            id: components["schemas"]["ApiKeyId"];
            name: string;
            permissions: components["schemas"]["Permission"][];
            /**
             * @description The first 12 characters of the current secret (`oisr_` and 7 more): enough to match a
             *     key to a secret found in a log or a leak report, far too few to use. `null` for keys
             *     whose secret was made before API keys existed (only its hash was ever stored) until
             *     they are rotated.
             */
            prefix: string | null;
            /**
             * @description `active`; `expired` once `expires_at` has passed; `revoked` once revoked (final).
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            created_at: components["schemas"]["CreatedAt"];
            /** @description The key that created this one; `null` for keys made by an operator (`oisr-server`). */
            created_by: components["schemas"]["ApiKeyId"] | null;
            /**
             * Format: date-time
             * @description When the key stops working; `null` for a key that works until revoked.
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description When a call last authenticated with the key, to the minute: it is recorded at most once
             *     a minute per key and server process, so it can lag by up to a minute. `null` if never used.
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description The last rotation; `null` if never rotated.
             */
            rotated_at: string | null;
            /**
             * Format: date-time
             * @description While a secret replaced by rotation still works, when it stops; `null` otherwise.
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        /** @description An API key and its secret, answered only on creation and on rotation. */
        ApiKeyWithSecret: {
            id: components["schemas"]["ApiKeyId"];
            name: string;
            permissions: components["schemas"]["Permission"][];
            /**
             * @description The first 12 characters of the current secret (`oisr_` and 7 more): enough to match a
             *     key to a secret found in a log or a leak report, far too few to use. `null` for keys
             *     whose secret was made before API keys existed (only its hash was ever stored) until
             *     they are rotated.
             */
            prefix: string | null;
            /**
             * @description `active`; `expired` once `expires_at` has passed; `revoked` once revoked (final).
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            created_at: components["schemas"]["CreatedAt"];
            /** @description The key that created this one; `null` for keys made by an operator (`oisr-server`). */
            created_by: components["schemas"]["ApiKeyId"] | null;
            /**
             * Format: date-time
             * @description When the key stops working; `null` for a key that works until revoked.
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description When a call last authenticated with the key, to the minute: it is recorded at most once
             *     a minute per key and server process, so it can lag by up to a minute. `null` if never used.
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description The last rotation; `null` if never rotated.
             */
            rotated_at: string | null;
            /**
             * Format: date-time
             * @description While a secret replaced by rotation still works, when it stops; `null` otherwise.
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description The bearer token (`oisr_` and 43 more characters). Shown once; OISR keeps only its SHA-256 hash. */
            secret: string;
        };
        ApiKeyPage: {
            data: components["schemas"]["ApiKey"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        /**
         * @description Stable machine-readable error code; see the Errors section of the introduction.
         * @enum {string}
         */
        ProblemCode: "invalid_json" | "validation_failed" | "invalid_cursor" | "unauthorized" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "request_header_fields_too_large" | "idempotency_key_reused" | "subscription_disabled" | "request_not_retryable" | "insufficient_permission" | "api_key_expired" | "api_key_inactive" | "last_admin_key" | "rate_limited" | "internal_error" | "service_unavailable";
        /** @description One way in which a request does not match this document. */
        FieldError: {
            /**
             * @description JSON Pointer (RFC 6901) into the request body, e.g. `/orders/0/lines/1/quantity`; for a
             *     parameter, `/query/{name}`, `/params/{name}` (path) or `/headers/{lower-case name}`
             *     (no request body has a top-level member of those names).
             */
            pointer: string;
            /**
             * @description The JSON Schema keyword that failed, e.g. `required`, `type`, `enum`, `pattern`,
             *     `format`, `minimum`, `maxLength`, `minItems`, `maxItems`, `additionalProperties`;
             *     `url_not_allowed` for a webhook URL that is not https or resolves to a private address;
             *     `out_of_range` for a recovery window that starts before the retention period or ends
             *     before it starts, or an API key's `expires_at` that is past, too far ahead or after
             *     the calling key's own expiry; or `unsupported_character` for a string holding U+0000 or a lone
             *     UTF-16 surrogate, which JSON allows but no stored document can hold.
             */
            code: string;
            message: string;
        };
        /**
         * @description An RFC 9457 problem. `type` is `https://oisr.dev/problems/{code}`, `title` a fixed phrase
         *     per code, `detail` the specifics of this occurrence. No stack traces or internals.
         */
        Problem: {
            /** Format: uri */
            type: string;
            title: string;
            status: number;
            detail: string;
            trace_id: components["schemas"]["TraceId"];
            code: components["schemas"]["ProblemCode"];
            /**
             * @description For `validation_failed`, one entry per problem (at least one), in document order, at
             *     most 100. An array longer than its `maxItems` is reported as one problem and its items
             *     are not checked.
             */
            errors?: components["schemas"]["FieldError"][];
            /**
             * @description Present when there are more problems than `errors` lists: how many were found.
             *     Counting stops at 1000, so a body with more problems reports 1000 (and says "or more"
             *     in `detail`). Validation work is bounded by what it reports, not by the body.
             */
            errors_total?: number;
            /** @description For `insufficient_permission`, the permission the call needs. */
            permission?: components["schemas"]["Permission"];
            /** @description For the API key problems, the key concerned. */
            api_key_id?: components["schemas"]["ApiKeyId"];
            /**
             * Format: date-time
             * @description For `api_key_expired`, when the key or its replaced secret stopped working.
             */
            expired_at?: string;
        };
        /**
         * @description - `return.created`: a return's first version.
         *     - `return.updated`: every later version of a return.
         *     - `return.disposition.created`: a disposition was recorded.
         *     - `return.completed`: a return entered `completed`.
         *     - `return.cancelled`: a return entered `cancelled`.
         *     - `request.succeeded`: an ingest request was applied (status `succeeded`).
         *     - `request.failed`: an ingest request was rejected by business rules (status `failed`).
         *     - `request.dead`: an ingest request could not be processed (status `dead`).
         *
         *     Request events are opt-in like every type: a subscription receives them only when its
         *     `events` lists them.
         * @enum {string}
         */
        WebhookEventType: "return.created" | "return.updated" | "return.disposition.created" | "return.completed" | "return.cancelled" | "request.succeeded" | "request.failed" | "request.dead";
        /**
         * @description The event types whose `data.object` is a return.
         * @enum {string}
         */
        ReturnEventType: "return.created" | "return.updated" | "return.disposition.created" | "return.completed" | "return.cancelled";
        /**
         * @description The event types whose `data.object` is a request record, sent when a request reaches its final status.
         * @enum {string}
         */
        RequestEventType: "request.succeeded" | "request.failed" | "request.dead";
        /**
         * @description `disabled` subscriptions receive nothing (test events excepted). A `410` answer from the endpoint disables the subscription.
         * @enum {string}
         */
        WebhookSubscriptionStatus: "enabled" | "disabled";
        /**
         * Format: uri
         * @description The endpoint. `https` only, and it must not resolve to a private, loopback or link-local
         *     address (unless the deployment allows private networks, for development and tests).
         * @example https://ops.acme-outfitters.com/webhooks/oisr
         */
        WebhookUrl: string;
        /** @description The event types to deliver (at least one, no duplicates). */
        WebhookEvents: components["schemas"]["WebhookEventType"][];
        /**
         * @description The signing secret: `whsec_` and a base64 key (32 random bytes). Shown only when the
         *     subscription is created and when the secret is rotated.
         * @example whsec_buDs2IMBU7kJbEBTDxo0v24P9EoRjWTF1Bb+ZISQE+E=
         */
        WebhookSecret: string;
        WebhookSubscription: {
            id: components["schemas"]["WebhookSubscriptionId"];
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEvents"];
            description: string | null;
            status: components["schemas"]["WebhookSubscriptionStatus"];
            created_at: components["schemas"]["CreatedAt"];
            updated_at: components["schemas"]["UpdatedAt"];
        };
        /** @description A subscription with its signing secret, answered only on creation and on rotation. */
        WebhookSubscriptionWithSecret: {
            id: components["schemas"]["WebhookSubscriptionId"];
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEvents"];
            description: string | null;
            status: components["schemas"]["WebhookSubscriptionStatus"];
            secret: components["schemas"]["WebhookSecret"];
            created_at: components["schemas"]["CreatedAt"];
            updated_at: components["schemas"]["UpdatedAt"];
        };
        /** @description A new subscription; it starts `enabled`. */
        WebhookSubscriptionCreate: {
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEvents"];
            description?: string;
        };
        /** @description The fields to change (at least one); fields left out keep their value. */
        WebhookSubscriptionUpdate: {
            url?: components["schemas"]["WebhookUrl"];
            events?: components["schemas"]["WebhookEvents"];
            /** @description `null` clears it. */
            description?: string | null;
            status?: components["schemas"]["WebhookSubscriptionStatus"];
        };
        WebhookSubscriptionPage: {
            data: components["schemas"]["WebhookSubscription"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        /** @description One delivery attempt of one event to one subscription. */
        WebhookDelivery: {
            id: components["schemas"]["WebhookDeliveryId"];
            event_id: components["schemas"]["EventId"];
            /**
             * @description A `WebhookEventType`, or `webhook.test`.
             * @enum {string}
             */
            event_type: "return.created" | "return.updated" | "return.disposition.created" | "return.completed" | "return.cancelled" | "request.succeeded" | "request.failed" | "request.dead" | "webhook.test";
            /**
             * @description What sent the event to the endpoint: `event` (the event happened), `test`
             *     (`POST …/test`), `retry` (`POST …/deliveries/{delivery_id}/retry`) or `recover`
             *     (`POST …/recover`). Automatic retries keep the trigger of the attempt they follow.
             *     Every trigger sends the same event `id` as `webhook-id`.
             * @enum {string}
             */
            trigger: "event" | "test" | "retry" | "recover";
            /**
             * @description 1 for the first attempt of a sending (the event, a test, a retry or a recovery), 2 for
             *     its first automatic retry, and so on. Each sending gets the whole retry schedule.
             */
            attempt: number;
            /**
             * @description `pending`: scheduled, not made yet. `succeeded`: answered `2xx`. `failed`: any other answer, a timeout or a connection error.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /** @description The HTTP status your endpoint answered; `null` while pending or when no answer came. */
            response_status: number | null;
            /**
             * @description The `Content-Type` header your endpoint answered with, its first 200 characters; `null`
             *     while pending, when no answer came or when the answer had none.
             */
            response_content_type: string | null;
            /**
             * @description The start of the body your endpoint answered with, whatever the status: its first 1,024
             *     bytes, decoded as UTF-8 (a character cut at the end is dropped; bytes that are not UTF-8,
             *     and NUL, become U+FFFD), so at most 1,024 characters. OISR reads no more of the body than
             *     that. Answer a rejected delivery with a short reason (`signature mismatch`, `unknown
             *     event type`) and it shows here. `null` while pending, when no answer came or when the
             *     body was empty.
             */
            response_body: string | null;
            /** @description Why the attempt failed (`HTTP 503 Service Unavailable`, `timeout`, `connection refused`, ...); `null` unless `failed`. */
            error: string | null;
            /**
             * @description The `Retry-After` your endpoint sent with a `429` or `503`, in seconds (an HTTP date is
             *     converted). It pauses every delivery to this subscription for at least that long, at
             *     most one hour: `next_attempt_at` of this and of the subscription's other pending
             *     attempts moves accordingly. `null` when none was sent.
             */
            retry_after_seconds: number | null;
            /** @description How long the attempt took; `null` while pending. */
            duration_ms: number | null;
            /**
             * Format: date-time
             * @description When the attempt was made; `null` while pending.
             */
            attempted_at: string | null;
            /**
             * Format: date-time
             * @description While `pending`, when this attempt is due. After a `failed` attempt, when the next one is
             *     due, or `null` if there is none (schedule exhausted, `410`, subscription disabled or
             *     deleted). `null` after success.
             */
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @description When the attempt was scheduled.
             */
            readonly created_at: string;
        };
        WebhookDeliveryPage: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more items are available right now. */
            has_more: boolean;
        };
        /**
         * @description The body of a return event. Deliveries are at least once and unordered: deduplicate by `id`
         *     and keep the return with the highest `version`.
         */
        ReturnEvent: {
            id: components["schemas"]["EventId"];
            type: components["schemas"]["ReturnEventType"];
            /**
             * Format: date-time
             * @description When the change that caused the event was committed.
             */
            created_at: string;
            /** @description The API key whose call caused the event (the key that submitted the ingest request); `null` for requests accepted before API keys existed. */
            api_key_id: components["schemas"]["ApiKeyId"] | null;
            data: {
                object: components["schemas"]["Return"];
            };
        };
        /**
         * @description The body of a request event, sent when an ingest request reaches `succeeded`, `failed` or
         *     `dead`. It is written in the transaction that sets that status: a request that is retried
         *     sends nothing until its final status, and exactly one event is written per request.
         *     React to it instead of polling `GET /requests/{request_id}`.
         */
        RequestEvent: {
            id: components["schemas"]["EventId"];
            type: components["schemas"]["RequestEventType"];
            /**
             * Format: date-time
             * @description When the request's final status was committed.
             */
            created_at: string;
            /** @description The API key whose call caused the event (the key that submitted the ingest request); `null` for requests accepted before API keys existed. */
            api_key_id: components["schemas"]["ApiKeyId"] | null;
            data: {
                object: components["schemas"]["RequestEventObject"];
            };
        };
        /**
         * @description The request record at its final status, as `GET /requests/{request_id}` returns it, with
         *     the per-item lists bounded so that an event stays small: `result.items` is left out when
         *     the batch has more than 100 items, and `errors` holds at most the first 100 errors
         *     (`errors_total` counts them all). `url` reads the whole record.
         */
        RequestEventObject: {
            request_id: components["schemas"]["RequestId"];
            /** @description The API key that submitted the request; `null` for requests accepted before API keys existed. */
            api_key_id: components["schemas"]["ApiKeyId"] | null;
            kind: components["schemas"]["RequestKind"];
            /**
             * @description The final status.
             * @enum {string}
             */
            status: "succeeded" | "failed" | "dead";
            trace_id: components["schemas"]["TraceId"];
            idempotency_key: string | null;
            item_count: number;
            /** Format: date-time */
            accepted_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            completed_at: string;
            attempts: number;
            /** @description On `succeeded`, the counts, and the items when the batch has at most 100; `null` otherwise. */
            result: components["schemas"]["RequestEventResult"] | null;
            /** @description On `failed`, the first 100 offending items; empty otherwise. */
            errors: components["schemas"]["ItemError"][];
            /** @description How many errors the request has in all (the length of `errors` on `GET /requests/{request_id}`). */
            errors_total: number;
            /** @description On `dead`, the reason; `null` otherwise. */
            error: components["schemas"]["DeadError"] | null;
            /**
             * @description The path of the whole record, `/v2/requests/{request_id}`.
             * @example /v2/requests/0195b4a2-6c1e-7c3a-9f2d-4e8b1a0c5d7f
             */
            url: string;
        };
        RequestEventResult: {
            created: number;
            updated: number;
            unchanged: number;
            stale: number;
            /** @description One entry per submitted item, in order; left out when the batch has more than 100 items. */
            items?: components["schemas"]["RequestResultItem"][];
        };
        /** @description The body of a `webhook.test` event. */
        WebhookTestEvent: {
            id: components["schemas"]["EventId"];
            /** @constant */
            type: "webhook.test";
            /** Format: date-time */
            created_at: string;
            /** @description The API key whose call caused the event (the key that called `…/test`). */
            api_key_id: components["schemas"]["ApiKeyId"] | null;
            data: {
                object: {
                    subscription_id: components["schemas"]["WebhookSubscriptionId"];
                    message: string;
                };
            };
        };
        /**
         * @description An event of the account, as `GET /events` lists it and as webhook deliveries carry it (the
         *     same bytes' object: `id`, `type`, `created_at`, `data.object`). Narrow on `type`: return
         *     events carry a return, request events a request record. More event types may come, so
         *     ignore the ones you do not know. `webhook.test` events are not among them.
         */
        Event: components["schemas"]["ReturnEvent"] | components["schemas"]["RequestEvent"];
        /** @description The window of events to send again, by their `created_at`. */
        WebhookRecoveryCreate: {
            /**
             * Format: date-time
             * @description Events created at or after this instant. At most the event retention period (30 days by default) ago; older events no longer exist.
             */
            since: string;
            /**
             * Format: date-time
             * @description Events created before this instant; the time of the call when left out or later. Must be later than `since`.
             */
            until?: string;
        };
        /**
         * @description A recovery: a background job that queues, for one subscription, a new delivery of every
         *     event in the window whose type the subscription receives. Follow its `status` and
         *     `events_queued` with `GET /webhook_subscriptions/{subscription_id}/recoveries/{recovery_id}`,
         *     and each delivery in `GET /webhook_subscriptions/{subscription_id}/deliveries` (trigger `recover`).
         */
        WebhookRecovery: {
            /**
             * @description Server id of the recovery.
             * @example whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R
             */
            readonly id: string;
            subscription_id: components["schemas"]["WebhookSubscriptionId"];
            /** Format: date-time */
            since: string;
            /**
             * Format: date-time
             * @description The end of the window (exclusive), fixed when the recovery was made.
             */
            until: string;
            /**
             * @description `running` while events are being queued; `completed` when every event of the window is queued (their deliveries may still be pending).
             * @enum {string}
             */
            status: "running" | "completed";
            /** @description Events queued for delivery so far. */
            events_queued: number;
            created_at: components["schemas"]["CreatedAt"];
            /**
             * Format: date-time
             * @description When the last event of the window was queued; `null` while `running`.
             */
            completed_at: string | null;
        };
        EventPage: {
            /** @description Events, oldest first. */
            data: components["schemas"]["Event"][];
            /** @description Cursor for the next page, present on every page. */
            next_cursor: string;
            /** @description Whether more events are available right now. */
            has_more: boolean;
        };
        HealthStatus: {
            /** @constant */
            status: "ok";
        };
        ReadinessStatus: {
            /** @constant */
            status: "ready";
            /**
             * @description Present when a read replica is configured (`OISR_READ_DATABASE_URL`). Its state never
             *     makes the service unready: while it is `unreachable`, the feeds and lists it serves are
             *     read from the primary.
             */
            read_replica?: {
                /** @enum {string} */
                status: "reachable" | "unreachable";
                /**
                 * @description Seconds since the last transaction the replica replayed, `0` when it has replayed
                 *     everything it received: how stale the feeds and lists may be. Only when reachable.
                 */
                lag_seconds?: number;
            };
        };
    };
    responses: {
        /**
         * @description The request is malformed (`invalid_json`), does not match this document
         *     (`validation_failed`, with one entry per problem in `errors`; this includes batches with
         *     more than 1000 items, and bodies that are valid JSON but not an object, such as `null`,
         *     `"x"` or `[]`, reported at pointer `""`), or carries a bad cursor (`invalid_cursor`).
         *     Nothing was stored.
         */
        BadRequest: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The token is missing, malformed, unknown or revoked (`unauthorized`), or the key expired or
         *     its secret was replaced by a rotation whose overlap ended (`api_key_expired`, with
         *     `expired_at` and `api_key_id`).
         */
        Unauthorized: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The key is valid but lacks a permission (`permission` names it, `api_key_id` names the
         *     key): the one this call needs — then the call counted toward no rate limit — or, on
         *     `POST /api_keys` and `POST /api_keys/{api_key_id}/rotate`, one the new or rotated key would
         *     hold (decided from the body or the key, so that call counted like any other). Nothing was
         *     stored. Ask an account admin for a key that holds the permission.
         */
        Forbidden: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description `api_key_inactive`: rotating a key that is revoked or expired, or revoking a key that is
         *     already revoked (an expired key may be revoked). `last_admin_key`: revoking it would leave
         *     the account without an active key that holds `api_keys:write`.
         */
        ApiKeyConflict: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The resource does not exist, belongs to another account, or (for requests) is older than
         *     the retention period.
         */
        NotFound: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The path exists but does not support the method used; `Allow` lists the methods it does. */
        MethodNotAllowed: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is larger than 5 MiB. Split the batch. */
        PayloadTooLarge: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The `Idempotency-Key` was used in the past 24 hours, on this endpoint, with a different
         *     body. Use a new key for a new body.
         */
        IdempotencyKeyReused: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The webhook subscription is disabled; enable it (`PATCH` with `status` `enabled`) first. */
        SubscriptionDisabled: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request is not `failed` or `dead`, so it cannot be sent again. */
        RequestNotRetryable: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The rate limit of the operation's scope is reached. Wait `Retry-After` seconds; the
         *     refused call did not count.
         */
        TooManyRequests: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An unexpected error. Nothing about it is exposed beyond the trace id; report it with `trace_id`. */
        InternalError: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The database is unavailable. Retry after `Retry-After` seconds; for ingest calls, retry
         *     with the same `Idempotency-Key`.
         */
        ServiceUnavailable: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The database is unreachable or not fully migrated. */
        NotReady: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Any `2xx` acknowledges the event; it is not sent again. The body is ignored. */
        WebhookAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description `410 Gone` disables the subscription: no further attempt is made for this or any later
         *     event until it is enabled again (`PATCH` with `status: enabled`).
         */
        WebhookGone: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description Any other answer, a timeout or a connection error fails the attempt; it is retried with
         *     exponential backoff and jitter over about a day (by default after 5 s, 5 min, 30 min, 2 h,
         *     5 h, 10 h and 10 h), then given up.
         */
        WebhookRetry: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: {
        /**
         * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
         *     beginning. It carries the filters it was made with: send it with the same filters (or
         *     none), otherwise the call is `400` (`invalid_cursor`).
         * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
         */
        Cursor: string;
        /**
         * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
         *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
         * @example 100
         */
        Limit: number;
        /**
         * @description Only orders with this status.
         * @example partially_shipped
         */
        OrderStatusFilter: components["schemas"]["OrderStatus"];
        /**
         * @description Only orders from this source (exact match, e.g. `shopify`).
         * @example shopify
         */
        SourceFilter: string;
        /**
         * @description Only resources whose `updated_at` is at or after this instant. Useful for a first sync
         *     that skips old history; for incremental polling, use the cursor.
         * @example 2025-03-01T00:00:00Z
         */
        UpdatedSince: string;
        /**
         * @description Only returns with this status.
         * @example received
         */
        ReturnStatusFilter: components["schemas"]["ReturnStatus"];
        /**
         * @description Only returns of this order, named by its server id or its `external_id`.
         * @example 5123456789012
         */
        ReturnOrderFilter: string;
        /**
         * @description Only requests with this status.
         * @example failed
         */
        RequestStatusFilter: components["schemas"]["RequestStatus"];
        /**
         * @description Only requests made to this ingest endpoint.
         * @example returns
         */
        RequestKindFilter: components["schemas"]["RequestKind"];
        /**
         * @description Only levels at this location (exact match).
         * @example WH-PDX-01
         */
        LocationIdFilter: string;
        /**
         * @description Only levels of this SKU (exact match).
         * @example TEE-ORG-BLK-M
         */
        SkuFilter: string;
        /**
         * @description Only events of these types. Repeat the parameter for several:
         *     `?type=return.created&type=return.completed`.
         * @example [
         *       "return.created",
         *       "return.completed"
         *     ]
         */
        EventTypeFilter: components["schemas"]["WebhookEventType"][];
        /**
         * @description Only requests accepted at or after this instant (`accepted_at >= accepted_since`).
         * @example 2025-03-23T00:00:00Z
         */
        AcceptedSince: string;
        /**
         * @description Only requests accepted before this instant (`accepted_at < accepted_until`).
         * @example 2025-03-24T00:00:00Z
         */
        AcceptedUntil: string;
        /**
         * @description Only events whose `created_at` is at or after this instant. Useful for a first sync that
         *     skips old history; for incremental polling, use the cursor.
         * @example 2025-03-01T00:00:00Z
         */
        CreatedSince: string;
        /**
         * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
         *     For 24 hours, the same account, endpoint and key with the same body answers the original
         *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
         *     the same key with a different body is `422` (`idempotency_key_reused`).
         * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
         */
        IdempotencyKey: string;
        /**
         * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
         *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
         *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
         *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
         *     header this long is not a trace context (version 00 is 55 characters).
         * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
         */
        Traceparent: string;
        /**
         * @description The order's server id (`ord_...`), tried first, or its `external_id`.
         * @example ord_01JP9YVEKTNDE3MZX9B154EWRG
         */
        OrderIdentifier: string;
        /**
         * @description The return's server id (`ret_...`), tried first, or its `external_id` (the RMA).
         * @example RMA-10042
         */
        ReturnIdentifier: string;
        /**
         * @description The `request_id` of the `202` answer (a UUID).
         * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
         */
        RequestIdPath: string;
        /**
         * @description The subscription's id (`whs_...`).
         * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
         */
        SubscriptionId: string;
        /**
         * @description The delivery attempt's id (`whd_...`).
         * @example whd_01JPSG5BNA823QRHXQJF5YY1V2
         */
        DeliveryIdPath: string;
        /**
         * @description The recovery's id (`whr_...`).
         * @example whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R
         */
        RecoveryIdPath: string;
        /**
         * @description The event's id (`evt_...`), the `webhook-id` of its deliveries.
         * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
         */
        EventIdPath: string;
        /**
         * @description The key's id (`key_...`), never its secret.
         * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
         */
        ApiKeyIdPath: string;
        /**
         * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
         * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
         */
        WebhookIdHeader: string;
        /**
         * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
         *     timestamp is more than a few minutes away from your clock.
         * @example 1742465052
         */
        WebhookTimestampHeader: number;
        /**
         * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
         *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
         *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
         *     old); accept the delivery if any one matches.
         * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
         */
        WebhookSignatureHeader: string;
        /**
         * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
         *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
         *     the test call's), so a receiver can find that call. The parent id is new for every
         *     attempt; the flags are `01` when the deployment records traces and samples this one,
         *     else `00`.
         * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
         */
        WebhookTraceparentHeader: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description W3C trace id of this call (32 lowercase hex digits), on every response.
         * @example 5e05a0f9b6eac538ba9702f9c2a31970
         */
        "X-Trace-Id": components["schemas"]["TraceId"];
        /**
         * @description Calls allowed per rolling 60 seconds in the operation's rate-limit scope (for a call in two
         *     scopes, the scope with the fewest remaining). Present on every response of a rate-limited
         *     operation once the call has been counted: not on `401` (no account is known yet), and not
         *     on a `5xx` given before the call could be counted.
         * @example 600
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Calls left in the current window of that scope; `0` on `429`.
         * @example 587
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Unix time in seconds at which the oldest counted call leaves the window of that scope.
         * @example 1742465092
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Whole seconds to wait before calling again (at least 1).
         * @example 1
         */
        "Retry-After": number;
        /**
         * @description The request record to poll, `/v2/requests/{request_id}`.
         * @example /v2/requests/019593ed-b960-7678-bfcc-cf7dbea23c69
         */
        Location: string;
        /**
         * @description `true` when this answer replays the original answer to an earlier call with the same
         *     `Idempotency-Key` and body; absent otherwise.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description The methods this path supports.
         * @example GET, POST
         */
        Allow: string;
        /**
         * @description The authentication scheme to use, `Bearer` (RFC 6750); on `403`, with
         *     `error="insufficient_scope"` and the missing permission as `scope`.
         * @example Bearer
         */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    ingestOrders: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrdersIngestBody"];
            };
        };
        responses: {
            /** @description The batch is valid and stored; it will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ingestInventory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryIngestBody"];
            };
        };
        responses: {
            /** @description The snapshots are valid and stored; they will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ingestShipments: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShipmentsIngestBody"];
            };
        };
        responses: {
            /** @description The shipments are valid and stored; they will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ingestReturns: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnsIngestBody"];
            };
        };
        responses: {
            /** @description The returns are valid and stored; they will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ingestDispositions: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The return's server id (`ret_...`), tried first, or its `external_id` (the RMA).
                 * @example RMA-10042
                 */
                return_id: components["parameters"]["ReturnIdentifier"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DispositionsIngestBody"];
            };
        };
        responses: {
            /** @description The dispositions are valid and stored; they will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only orders with this status.
                 * @example partially_shipped
                 */
                status?: components["parameters"]["OrderStatusFilter"];
                /**
                 * @description Only orders from this source (exact match, e.g. `shopify`).
                 * @example shopify
                 */
                source?: components["parameters"]["SourceFilter"];
                /**
                 * @description Only resources whose `updated_at` is at or after this instant. Useful for a first sync
                 *     that skips old history; for incremental polling, use the cursor.
                 * @example 2025-03-01T00:00:00Z
                 */
                updated_since?: components["parameters"]["UpdatedSince"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the orders change feed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The order's server id (`ord_...`), tried first, or its `external_id`.
                 * @example ord_01JP9YVEKTNDE3MZX9B154EWRG
                 */
                identifier: components["parameters"]["OrderIdentifier"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listReturns: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only returns with this status.
                 * @example received
                 */
                status?: components["parameters"]["ReturnStatusFilter"];
                /**
                 * @description Only returns of this order, named by its server id or its `external_id`.
                 * @example 5123456789012
                 */
                order_id?: components["parameters"]["ReturnOrderFilter"];
                /**
                 * @description Only resources whose `updated_at` is at or after this instant. Useful for a first sync
                 *     that skips old history; for incremental polling, use the cursor.
                 * @example 2025-03-01T00:00:00Z
                 */
                updated_since?: components["parameters"]["UpdatedSince"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the returns change feed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReturnPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReturn: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The return's server id (`ret_...`), tried first, or its `external_id` (the RMA).
                 * @example RMA-10042
                 */
                return_id: components["parameters"]["ReturnIdentifier"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The return. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Return"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRequests: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only requests with this status.
                 * @example failed
                 */
                status?: components["parameters"]["RequestStatusFilter"];
                /**
                 * @description Only requests made to this ingest endpoint.
                 * @example returns
                 */
                kind?: components["parameters"]["RequestKindFilter"];
                /**
                 * @description Only requests accepted at or after this instant (`accepted_at >= accepted_since`).
                 * @example 2025-03-23T00:00:00Z
                 */
                accepted_since?: components["parameters"]["AcceptedSince"];
                /**
                 * @description Only requests accepted before this instant (`accepted_at < accepted_until`).
                 * @example 2025-03-24T00:00:00Z
                 */
                accepted_until?: components["parameters"]["AcceptedUntil"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of request records, newest first. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryRequests: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetryRequestsBody"];
            };
        };
        responses: {
            /** @description The selected requests are sent again; each new request will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryRequestsResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRequestQueue: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's queue right now. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestQueue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRequest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request record. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestRecord"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRequestBody: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The submitted body; its shape is the one of the request's `kind`. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmittedBody"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryRequest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the call safe to retry. 1-255 printable ASCII characters; a UUID is a good choice.
                 *     For 24 hours, the same account, endpoint and key with the same body answers the original
                 *     `202` body (same `request_id`) with `Idempotent-Replayed: true` and stores nothing new;
                 *     the same key with a different body is `422` (`idempotency_key_reused`).
                 * @example 8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The `request_id` of the `202` answer (a UUID).
                 * @example 019593ed-b960-7678-bfcc-cf7dbea23c69
                 */
                request_id: components["parameters"]["RequestIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new request is stored; it will be applied asynchronously. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["RequestNotRetryable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listInventory: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only levels at this location (exact match).
                 * @example WH-PDX-01
                 */
                location_id?: components["parameters"]["LocationIdFilter"];
                /**
                 * @description Only levels of this SKU (exact match).
                 * @example TEE-ORG-BLK-M
                 */
                sku?: components["parameters"]["SkuFilter"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of inventory levels. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookSubscriptions: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook subscriptions, newest first. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookSubscriptionCreate"];
            };
        };
        responses: {
            /** @description The subscription, with its secret (shown only here and on rotation). */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /**
                     * @description The new subscription, `/v2/webhook_subscriptions/{id}`.
                     * @example /v2/webhook_subscriptions/whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookSubscriptionUpdate"];
            };
        };
        responses: {
            /** @description The updated subscription. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription with its new secret. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test event is queued; this is its first, still pending, delivery attempt. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of delivery attempts, newest first. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
                /**
                 * @description The delivery attempt's id (`whd_...`).
                 * @example whd_01JPSG5BNA823QRHXQJF5YY1V2
                 */
                delivery_id: components["parameters"]["DeliveryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is queued again; this is the new, still pending, delivery attempt. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SubscriptionDisabled"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recoverWebhookSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRecoveryCreate"];
            };
        };
        responses: {
            /** @description The recovery started. */
            202: {
                headers: {
                    /** @description `/v2/webhook_subscriptions/{subscription_id}/recoveries/{recovery_id}`, where to follow the recovery. */
                    Location?: string;
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["SubscriptionDisabled"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookRecovery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The subscription's id (`whs_...`).
                 * @example whs_01JN8S7QQT86WJ5VH5F0CXSRN7
                 */
                subscription_id: components["parameters"]["SubscriptionId"];
                /**
                 * @description The recovery's id (`whr_...`).
                 * @example whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R
                 */
                recovery_id: components["parameters"]["RecoveryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recovery. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only events of these types. Repeat the parameter for several:
                 *     `?type=return.created&type=return.completed`.
                 * @example [
                 *       "return.created",
                 *       "return.completed"
                 *     ]
                 */
                type?: components["parameters"]["EventTypeFilter"];
                /**
                 * @description Only events whose `created_at` is at or after this instant. Useful for a first sync that
                 *     skips old history; for incremental polling, use the cursor.
                 * @example 2025-03-01T00:00:00Z
                 */
                created_since?: components["parameters"]["CreatedSince"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the events feed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The event's id (`evt_...`), the `webhook-id` of its deliveries.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                event_id: components["parameters"]["EventIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a previous page's `next_cursor`; leave it out to start from the
                 *     beginning. It carries the filters it was made with: send it with the same filters (or
                 *     none), otherwise the call is `400` (`invalid_cursor`).
                 * @example Oz5dHqunQ0hmlIesHLfUVWyGqJPZ65z6
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Maximum number of items in the page, in decimal digits (`0x10`, `1e1`, `+5` or `5.0` is
                 *     `400` `validation_failed` at `/query/limit`; leading zeros are allowed: `007` is 7).
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of API keys, newest first. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret (shown only here and on rotation). */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /**
                     * @description The new key, `/v2/api_keys/{id}`.
                     * @example /v2/api_keys/key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The key's id (`key_...`), never its secret.
                 * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                 */
                api_key_id: components["parameters"]["ApiKeyIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The key's id (`key_...`), never its secret.
                 * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                 */
                api_key_id: components["parameters"]["ApiKeyIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["ApiKeyConflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path: {
                /**
                 * @description The key's id (`key_...`), never its secret.
                 * @example key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD
                 */
                api_key_id: components["parameters"]["ApiKeyIdPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ApiKeyRotate"];
            };
        };
        responses: {
            /** @description The key with its new secret. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["ApiKeyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description W3C Trace Context header (`00-<trace-id>-<parent-id>-<flags>`). When it is valid, its
                 *     trace id becomes this call's `X-Trace-Id` (and the `trace_id` of the request record);
                 *     when it is missing or invalid, the server makes a new trace id. An invalid value of up to
                 *     512 characters is ignored, never rejected; a longer header is refused (`400`), as any
                 *     header this long is not a trace context (version 00 is 55 characters).
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01
                 */
                traceparent?: components["parameters"]["Traceparent"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessStatus"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["NotReady"];
        };
    };
    onReturnCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnEvent"] & {
                    /** @constant */
                    type?: "return.created";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onReturnUpdated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnEvent"] & {
                    /** @constant */
                    type?: "return.updated";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onReturnDispositionCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnEvent"] & {
                    /** @constant */
                    type?: "return.disposition.created";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onReturnCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnEvent"] & {
                    /** @constant */
                    type?: "return.completed";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onReturnCancelled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReturnEvent"] & {
                    /** @constant */
                    type?: "return.cancelled";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onRequestSucceeded: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RequestEvent"] & {
                    /** @constant */
                    type?: "request.succeeded";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onRequestFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RequestEvent"] & {
                    /** @constant */
                    type?: "request.failed";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onRequestDead: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RequestEvent"] & {
                    /** @constant */
                    type?: "request.dead";
                };
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
    onWebhookTest: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_...`); the same on every attempt. Use it to deduplicate.
                 * @example evt_01JPSG5BNAAA3HC4D9C7NWCM7D
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /**
                 * @description Unix time in seconds of this attempt. Part of the signed content; reject deliveries whose
                 *     timestamp is more than a few minutes away from your clock.
                 * @example 1742465052
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`,
                 *     keyed with the base64-decoded part of the subscription's secret after `whsec_`. For
                 *     24 hours after a secret rotation, two signatures separated by a space (new secret, then
                 *     old); accept the delivery if any one matches.
                 * @example v1,gPH3I96p1pH4RvCDcqDeb1s5MB5v1mH84ZWIurYMXHM=
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /**
                 * @description W3C trace context of this attempt. Its trace id is the one of the call that caused the
                 *     event (the `X-Trace-Id` and `trace_id` of that ingest call; a `webhook.test` event's is
                 *     the test call's), so a receiver can find that call. The parent id is new for every
                 *     attempt; the flags are `01` when the deployment records traces and samples this one,
                 *     else `00`.
                 * @example 00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-00
                 */
                traceparent: components["parameters"]["WebhookTraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            410: components["responses"]["WebhookGone"];
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookRetry"];
        };
    };
}
