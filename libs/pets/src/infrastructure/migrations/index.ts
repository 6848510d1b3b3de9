import { CreatePets1795219200000 } from './1795219200000-create-pets';
import { PetsAsTheirEntity1795600000002 } from './1795600000002-pets-as-their-entity';
import { PetsVersion1796000000000 } from './1796000000000-pets-version';

/** The pets module's migrations, oldest first. */
export const PETS_MIGRATIONS = [CreatePets1795219200000, PetsAsTheirEntity1795600000002, PetsVersion1796000000000];
