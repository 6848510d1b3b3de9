// The pets module's public surface: what the app and other modules may use.
export { PetCatalog } from './application/pet-catalog';
export { PET_ERROR_CODES } from './domain/pet.errors';
export type { PetCreated } from './domain/pet-created.event';
export type { PetStatusChanged } from './domain/pet-status-changed.event';
export { PetsModule } from './pets.module';
