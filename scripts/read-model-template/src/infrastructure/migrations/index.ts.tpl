import { Create__Things____TIMESTAMP__ } from './__TIMESTAMP__-create-__things-kebab__';

/** The module's migrations, oldest first. */
export const __THINGS___MIGRATIONS = [Create__Things____TIMESTAMP__];
