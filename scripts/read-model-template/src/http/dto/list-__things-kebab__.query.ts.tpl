import { PageQuery } from '@app/validation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/__things-kebab__.service';

/**
 * `GET /v1/__route__?limit=&after=`: a keyset page (the platform's PageQuery); a filter of the module's own is a
 * property added here. A repeated, empty or unknown parameter is invalid, not ignored.
 */
export class List__Things__Query extends PageQuery({
  item: '__a_thing__',
  defaultLimit: DEFAULT_PAGE_SIZE,
  maxLimit: MAX_PAGE_SIZE,
}) {}
