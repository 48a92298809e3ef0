// A failed request's errors drawn on the outline their pointers make (see pointer-tree.ts), shown
// until the submitted body is read (body-errors.tsx) or when it cannot be: each offending field is
// marked (<mark>) and carries its code and the problem's text.
import { type PointerError, type PointerNode, pointerTree } from "../pointer-tree.ts";

/** A member name or an array index, marked when the errors name it. Shared with body-errors.tsx. */
export function Label(props: { name: string | number | null; marked: boolean }) {
  const text = typeof props.name === "number" ? `[${props.name}]` : JSON.stringify(props.name);
  return props.marked ? <mark class="offending">{text}</mark> : <span class="json-key">{text}</span>;
}

/** Each error's code, the problem's text and its pointer. Shared with body-errors.tsx. */
export function Errors(props: { errors: readonly PointerError[] }) {
  if (props.errors.length === 0) return null;
  return (
    <ul class="field-errors">
      {props.errors.map((e) => (
        <li key={`${e.pointer}:${e.code}:${e.message}`}>
          <code>{e.code}</code> {e.message} <span class="muted">({e.pointer || "/"})</span>
        </li>
      ))}
    </ul>
  );
}

function Branch(props: { node: PointerNode }) {
  const { node } = props;
  return (
    <li>
      <Label name={node.key} marked={node.errors.length > 0} />
      <Errors errors={node.errors} />
      {node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <Branch key={String(child.key)} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function ErrorOutline(props: { errors: readonly PointerError[] }) {
  const root = pointerTree(props.errors);
  return (
    <div class="error-outline">
      <p class="muted">
        Each error is drawn at its JSON pointer in the outline of the submitted body, the offending field
        marked.
      </p>
      <Errors errors={root.errors} />
      <ul class="outline" aria-label="Rejected fields">
        {root.children.map((child) => (
          <Branch key={String(child.key)} node={child} />
        ))}
      </ul>
    </div>
  );
}
