/**
 * Who this service is, as the application names it: the OpenAPI document's
 * title, description and version, the docs page's title, and the prefix of
 * its own metrics. The platform knows no feature, so the app supplies it.
 */
export interface ServiceInfo {
  /** A short lowercase identifier, used as the prefix of the service's own metrics (`<id>_…`). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The interface version the document states. */
  readonly version: string;
}

export const SERVICE_INFO = Symbol('SERVICE_INFO');
