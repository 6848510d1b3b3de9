/**
 * The one versioned prefix of the API. Every feature module's routes are mounted under it (the app module's
 * RouterModule), and the OpenAPI document writes paths relative to servers that end in it. Health checks and metrics
 * live outside it.
 */
export const API_PREFIX = '/v1';
