// Small formatters shared by the pages. Everything they return is text: the pages render it as
// text nodes, never as HTML.

/** "3 s", "4 min", "2 h 5 min", "3 d 4 h": an age or a wait, rounded to what a person reads. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** An RFC 3339 time as the browser's locale shows it, with the ISO form a title can carry. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** `datetime-local` input value (local time) → RFC 3339 in UTC; empty → undefined. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
