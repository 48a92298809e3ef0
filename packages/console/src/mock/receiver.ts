// The webhook receiver of the mock page: the mock's dispatcher delivers through this function
// instead of the network (MockOptions.webhooks.fetch), so the page contacts no other origin. It
// answers 503 while "down" (during seeding: the seeded deliveries fail and wait for their retry,
// which the timeline shows), then 200.
let down = false;

export function setReceiverDown(value: boolean): void {
  down = value;
}

export const receiver: typeof fetch = async () => {
  return down
    ? new Response(JSON.stringify({ error: "receiver down for maintenance" }), {
        status: 503,
        headers: { "content-type": "application/json" },
      })
    : new Response(JSON.stringify({ ok: true }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
};
