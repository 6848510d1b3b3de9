// The pets module's public surface: what the app and other modules may use.
import { defineFeature } from '@app/platform';
import { PET_ERROR_CODES } from './domain/pet.errors';
import { PETS_MIGRATIONS } from './infrastructure/migrations';
import { PetRecord } from './infrastructure/pet.record';
import { PetsModule } from './pets.module';

export { PetCatalog } from './application/pet-catalog';
export type { PetCreated } from './domain/pet-created.event';
export type { PetStatusChanged } from './domain/pet-status-changed.event';
export { PetsModule };

/** The pets feature as the application composes it: its routes under `/v1/pets`, and its table. */
export const petsFeature = defineFeature({
  name: 'pets',
  module: () => PetsModule,
  entities: [PetRecord],
  migrations: PETS_MIGRATIONS,
  errorCodes: PET_ERROR_CODES,
});
