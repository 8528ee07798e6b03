/** How much of a client's own text an error message may repeat back. */
export const QUOTE_MAX_CHARS = 80;

// C0, DEL and C1 controls: they could forge log lines or hide text in a terminal.
const CONTROL = /\p{Cc}/gu;

/** Removes control characters from text a client sent, before anything stores or shows it. */
export function stripControlChars(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * Client input made fit for an error message: control characters removed, at most `max`
 * characters kept (then `…`), in double quotes. Only a prefix is looked at, so a huge input
 * costs no more than a short one.
 */
export function quoteUserText(text: string, max = QUOTE_MAX_CHARS): string {
  // Controls are rare: twice the budget almost always leaves `max` other characters to show.
  const window = text.slice(0, max * 2);
  let head = stripControlChars(window);
  let cut = text.length > window.length;
  if (head.length > max) {
    head = head.slice(0, max);
    cut = true;
  }
  // Never end on half of a surrogate pair.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `"${head}${cut ? '…' : ''}"`;
}
