/** Largest request body accepted; larger ones are answered 413 before they are read. */
export const MAX_BODY_BYTES = 16 * 1024;
