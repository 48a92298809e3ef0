// A failed request's errors drawn on the body it was submitted with (GET /requests/{id}/body): the
// body as a tree, each offending member marked (<mark>) with its code and the problem's text under
// it. A 1,000-item batch with one bad item must stay readable and light, so array elements without
// an error are folded into one line per run, and error-free values are shown on one short line.
import type { JSX } from "preact";
import { type PointerError, type PointerNode, pointerTree } from "../pointer-tree.ts";
import { Errors, Label } from "./error-outline.tsx";

/** Longest one-line rendering of an error-free value before it is cut. */
const INLINE_CHARS = 120;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function inline(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > INLINE_CHARS ? `${text.slice(0, INLINE_CHARS - 1)}…` : text;
}

/** The errors of `node` and of the pointers below it that name nothing in `value`. */
function unplaced(node: PointerNode, value: Json): PointerError[] {
  const out = [...node.errors];
  for (const child of node.children) {
    const inside = childValue(value, child.key);
    if (inside === undefined) out.push(...collect(child));
  }
  return out;
}

function collect(node: PointerNode): PointerError[] {
  return [...node.errors, ...node.children.flatMap(collect)];
}

function childValue(value: Json, key: string | number | null): Json | undefined {
  if (key === null || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) return typeof key === "number" ? value[key] : undefined;
  return Object.hasOwn(value, String(key)) ? value[String(key)] : undefined;
}

/** One member or element: its label, its value (a subtree when something below it is wrong). */
function Member(props: { name: string | number; value: Json; node: PointerNode | undefined }) {
  const { name, value, node } = props;
  const marked = (node?.errors.length ?? 0) > 0;
  const nested = node && node.children.length > 0 && value !== null && typeof value === "object";
  return (
    <li>
      <Label name={name} marked={marked} />
      {nested ? (
        <>
          <Errors errors={unplaced(node, value)} />
          <Tree value={value} node={node} />
        </>
      ) : (
        <>
          : <span class="json-value">{inline(value)}</span>
          {node && <Errors errors={collect(node)} />}
        </>
      )}
    </li>
  );
}

function Tree(props: { value: Json; node: PointerNode }): JSX.Element {
  const { value, node } = props;
  const byKey = new Map(node.children.map((c) => [c.key, c]));
  if (Array.isArray(value)) {
    const items: JSX.Element[] = [];
    let folded = 0;
    const fold = (at: number) => {
      if (folded === 0) return;
      items.push(
        <li key={`fold-${at}`} class="muted">
          … {folded} {folded === 1 ? "item" : "items"} without errors
        </li>,
      );
      folded = 0;
    };
    value.forEach((element, index) => {
      const child = byKey.get(index);
      if (!child) {
        folded++;
        return;
      }
      fold(index);
      items.push(<Member key={index} name={index} value={element} node={child} />);
    });
    fold(value.length);
    return <ul>{items}</ul>;
  }
  const members = value !== null && typeof value === "object" ? Object.entries(value) : [];
  return (
    <ul>
      {members.map(([key, member]) => (
        <Member key={key} name={key} value={member} node={byKey.get(key)} />
      ))}
    </ul>
  );
}

/** `body` is the submitted body; `errors` the failed record's. */
export function BodyErrors(props: { body: unknown; errors: readonly PointerError[] }) {
  const root = pointerTree(props.errors);
  const body = props.body as Json;
  return (
    <div class="error-outline">
      <p class="muted">The submitted body; each rejected field is marked, with the rule it broke.</p>
      <Errors errors={unplaced(root, body)} />
      <section class="outline" aria-label="Submitted body with rejected fields">
        <Tree value={body} node={root} />
      </section>
    </div>
  );
}
