// Runs the receiver: PORT (default 3000), OISR_WEBHOOK_SECRET (whsec_…, from creating the subscription).
import { describeFailure, failedRequest } from "./failed-requests.ts";
import { createReceiver } from "./receiver.ts";
import { secretProblem } from "./secret.ts";

const secret = process.env.OISR_WEBHOOK_SECRET;
// Checked before listening: a malformed secret would fail every delivery.
const problem = secretProblem(secret);
if (problem !== undefined || secret === undefined) {
  console.error(problem);
  process.exit(1);
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
