// Text put into HTML that the server or the mock renders from the spec (the /docs outline, the
// mock's plain reference): every character that could open markup or end an attribute, escaped.

/** `text` safe inside an element or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
