// Where a JSON text goes wrong, the same on every runtime: V8's JSON.parse names a position for
// some errors only ("Unexpected token '}', … is not valid JSON" has none), Firefox names line and
// column, JavaScriptCore neither. The server and the mock both call this on a body JSON.parse
// refused, so the invalid_json detail says where the body broke.

const WHITESPACE = " \t\n\r";
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/**
 * The offset of the first character of `text` that cannot continue a JSON value (RFC 8259), or
 * `text.length` when the text ends too early; -1 when `text` is valid JSON. Recursive: call it on
 * bodies whose depth was bounded first (MAX_BODY_DEPTH).
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && WHITESPACE.includes(text[i] as string)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) throw i;
      i++;
    }
  };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c < " ") throw i;
      if (c === '"') return void i++;
      if (c !== "\\") {
        i++;
        continue;
      }
      const escaped = text[++i];
      if (escaped === "u") {
        HEX4.lastIndex = ++i;
        if (!HEX4.test(text)) throw i;
        i += 4;
      } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++;
      else throw i;
    }
  };
  const members = (close: string, member: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      space();
      if (text[i] === ",") i++;
      else if (text[i] === close) return void i++;
      else throw i;
    }
  };
  const member = () => {
    space();
    if (text[i] !== '"') throw i;
    string();
    space();
    if (text[i] !== ":") throw i;
    i++;
    value();
  };
  function value(): void {
    space();
    const c = text[i];
    if (c === "{") members("}", member);
    else if (c === "[") members("]", value);
    else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) throw i;
      i = NUMBER.lastIndex;
    }
  }
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return Math.min(offset, text.length);
  }
}

/**
 * What is wrong with a JSON text and where, for people: `Unexpected token } at line 3, column 5`,
 * `Unexpected end of input at line 1, column 7`, `Unexpected character U+FEFF at …` for anything
 * but printable ASCII (a BOM, a raw newline in a string); undefined when the text is valid JSON. Lines and
 * columns count from 1, columns in UTF-16 code units (what editors show for ASCII).
 */
export function describeJsonError(text: string): string | undefined {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return undefined;
  const line = text.slice(0, offset).split("\n").length;
  const column = offset - text.lastIndexOf("\n", offset - 1);
  const code = text.codePointAt(offset);
  const what =
    code === undefined
      ? "Unexpected end of input"
      : code > 0x20 && code < 0x7f
        ? `Unexpected token ${String.fromCodePoint(code)}`
        : `Unexpected character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `${what} at line ${line}, column ${column}`;
}
