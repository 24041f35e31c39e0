/**
 * The regular expressions of Cairn's own tool schemas, as the JSON Schema `pattern` strings the
 * catalogue carries: the only ones workflow code runs when it checks a call's arguments
 * (validate-arguments.ts). Each is anchored and a single character class, so it runs in time
 * linear in its input. The built-in tools build their zod inputs from these very strings, and
 * test/unit/own-patterns.test.ts fails on a built-in schema whose expression is not listed here.
 */

/** An RFC 9110 token (a header name): no spaces, colons, CR or LF. */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** One line of a header value: tabs, spaces and visible Latin-1 characters (what Node accepts). */
export const HEADER_VALUE_PATTERN = '^[\\t\\x20-\\x7e\\x80-\\xff]*$';

/** Every `pattern` workflow code may run. */
export const OWN_PATTERNS: readonly string[] = [HEADER_NAME_PATTERN, HEADER_VALUE_PATTERN];
