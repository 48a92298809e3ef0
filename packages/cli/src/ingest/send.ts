// One ingest call per kind through the SDK, and the name of each kind's array in the body.
import type {
  DispositionInput,
  IngestAccepted,
  InventorySnapshotInput,
  OisrClient,
  OrderInput,
  ReturnInput,
  ShipmentInput,
} from "@oisr/sdk";
import type { Kind } from "../sources/open.ts";

export const BODY_ROOT: Record<Kind, string> = {
  orders: "orders",
  inventory: "snapshots",
  shipments: "shipments",
  returns: "returns",
  dispositions: "dispositions",
};

export function send(
  client: OisrClient,
  kind: Kind,
  items: unknown[],
  idempotencyKey: string,
  /** The parent the batch is sent under: the return, for dispositions. */
  target?: string,
): Promise<IngestAccepted> {
  // Items are passed on as read: the API validates them and its errors point back into the file.
  const options = { idempotencyKey };
  switch (kind) {
    case "orders":
      return client.orders.ingest(items as OrderInput[], options);
    case "inventory":
      return client.inventory.ingest(items as InventorySnapshotInput[], options);
    case "shipments":
      return client.shipments.ingest(items as ShipmentInput[], options);
    case "returns":
      return client.returns.ingest(items as ReturnInput[], options);
    case "dispositions":
      if (target === undefined) throw new Error("a dispositions batch needs its return");
      return client.returns.ingestDispositions(target, items as DispositionInput[], options);
  }
}
