// Loading, error and outcome lines. Errors are announced to screen readers (role="alert").
export function Problem(props: { text: string | null }) {
  if (!props.text) return null;
  return (
    <p class="problem" role="alert">
      {props.text}
    </p>
  );
}

export function Loading(props: { loading: boolean }) {
  return props.loading ? (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  ) : null;
}

export function Badge(props: { value: string }) {
  return <span class={`badge badge-${props.value}`}>{props.value}</span>;
}

/** JSON as text; wrapped rather than scrolled, so that keyboard users need not focus it to read it. */
export function JsonBlock(props: { value: unknown; label: string }) {
  return (
    <pre class="json" title={props.label}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}
