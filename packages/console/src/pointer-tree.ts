// The errors of a failed request, gathered into the shape of the submitted body by their JSON
// pointers (RFC 6901): `/returns/3/items/0/quantity` becomes returns → [3] → items → [0] →
// quantity. body-errors.tsx walks the submitted body along it; error-outline.tsx draws it alone,
// the body as far as the errors reveal it, until the body is read.
export interface PointerError {
  pointer: string;
  code: string;
  message: string;
}

export interface PointerNode {
  /** The member name, or the array index as a number. */
  key: string | number | null;
  children: PointerNode[];
  errors: PointerError[];
}

/** RFC 6901 reference tokens of a pointer ("" is the whole body: no tokens). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function pointerTree(errors: readonly PointerError[]): PointerNode {
  const root: PointerNode = { key: null, children: [], errors: [] };
  for (const error of errors) {
    let node = root;
    for (const token of pointerTokens(error.pointer)) {
      const key = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : token;
      let child = node.children.find((c) => c.key === key);
      if (!child) {
        child = { key, children: [], errors: [] };
        node.children.push(child);
      }
      node = child;
    }
    node.errors.push(error);
  }
  const sort = (node: PointerNode): void => {
    node.children.sort((a, b) =>
      typeof a.key === "number" && typeof b.key === "number" ? a.key - b.key : 0,
    );
    node.children.forEach(sort);
  };
  sort(root);
  return root;
}
