// A failed request's errors drawn on the outline their pointers make (see pointer-tree.ts), shown
// until the submitted body is read (body-errors.tsx) or when it cannot be: each offending field is
// marked (<mark>) and carries its code and the problem's text.
import { type PointerError, type PointerNode, pointerTree } from "../pointer-tree.ts";

function Label(props: { node: PointerNode }) {
  const { key } = props.node;
  const text = typeof key === "number" ? `[${key}]` : JSON.stringify(key);
  return props.node.errors.length > 0 ? (
    <mark class="offending">{text}</mark>
  ) : (
    <span class="json-key">{text}</span>
  );
}

function Errors(props: { errors: PointerError[] }) {
  if (props.errors.length === 0) return null;
  return (
    <ul class="field-errors">
      {props.errors.map((e) => (
        <li key={`${e.code}:${e.message}`}>
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
      <Label node={node} />
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
