/**
 * Who this service is, as the application names it: the OpenAPI document's title, description and version, the docs
 * page's title, the prefix of its own metrics, and the release an operator sees in `/health` and in `<id>_build_info`.
 * The platform knows no feature, so the app supplies it.
 */
export interface ServiceInfo {
  /** A short lowercase identifier, used as the prefix of the service's own metrics (`<id>_…`). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The interface version the document states: it changes with the contract, not with every release. */
  readonly version: string;
  /** The release of this build (`package.json`'s version; CHANGELOG.md says what each one changed). */
  readonly release: string;
}

export const SERVICE_INFO = Symbol('SERVICE_INFO');
