// PROVISIONAL: hand-written until spec/openapi.yaml exists; replaced by aliases of the generated schema.
export type ProblemCode = string;
export interface ItemError { pointer: string; code: string; message: string }
export interface Problem {
  type?: string; title?: string; status?: number; detail?: string; trace_id?: string;
  code?: ProblemCode; errors?: ItemError[];
}
export type RequestStatus = "pending" | "processing" | "succeeded" | "failed" | "dead";
export interface RequestRecord {
  request_id: string; kind: string; status: RequestStatus; trace_id: string;
  idempotency_key: string | null; item_count: number; accepted_at: string;
  started_at: string | null; completed_at: string | null; attempts: number;
  result: unknown; errors: ItemError[]; error: { code: string; message: string } | null;
}
