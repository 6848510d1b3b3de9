import { CreatePets1795219200000 } from './1795219200000-create-pets';

/** The pets module's migrations, oldest first. */
export const PETS_MIGRATIONS = [CreatePets1795219200000];
