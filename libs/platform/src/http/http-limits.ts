/** Largest request body accepted; larger ones are answered 413 before they are read. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Node's limit on the request line and headers together; past it Node answers 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
