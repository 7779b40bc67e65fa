/** The defaults of a server's limits: one definition, for the kernel, the schema and the hover. */
export const DEFAULT_REQUEST_TIMEOUT_SECS = 30;
/** A period without a sign of life; a server that keeps working gets up to ten (connectDeadline.ts). */
export const DEFAULT_CONNECT_TIMEOUT_SECS = 30;
export const DEFAULT_TOOL_RESULT_MAX_CHARS = 50_000;
