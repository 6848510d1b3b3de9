/**
 * Who this service is, as the application names it: the document's title, description and version, the prefix of its
 * own metrics, and the release `/health` and `<id>_build_info` name. The core knows no feature, so the app supplies it.
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
