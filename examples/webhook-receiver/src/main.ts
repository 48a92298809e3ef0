// Runs the receiver: PORT (default 3000), OISR_WEBHOOK_SECRET (whsec_…, from creating the subscription).
import { describeFailure, failedRequest } from "./failed-requests.ts";
import { createReceiver } from "./receiver.ts";

const secret = process.env.OISR_WEBHOOK_SECRET;
if (!secret) {
  console.error("Set OISR_WEBHOOK_SECRET to the subscription's whsec_… secret.");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 3000);
const server = createReceiver({
  secret,
  onEvent(event) {
    // A switch on `type` narrows the event: request events carry a request record, return events a return.
    switch (event.type) {
      case "webhook.test":
        console.log("test event received");
        break;
      case "request.failed":
        console.error(describeFailure(failedRequest(event)));
        break;
      case "request.succeeded":
      case "request.dead":
        console.log(event.type, event.data.object.request_id);
        break;
      default:
        console.log(event.type, event.data.object.id, event.data.object.status);
    }
  },
});
server.listen(port, () => console.log(`Listening on http://127.0.0.1:${port}/webhooks/oisr`));
process.once("SIGTERM", () => server.close());
process.once("SIGINT", () => server.close());
