/**
 * The one versioned prefix of the API: every feature's routes are mounted under it, and the document's servers end in
 * it. Health checks and metrics live outside it.
 */
export const API_PREFIX = '/v1';
