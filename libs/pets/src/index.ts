// The pets module's public surface: what the app and other modules may use.
export { PetsModule } from './pets.module';
export { PetsService } from './application/pets.service';
export { PET_ERROR_CODES } from './domain/pet.errors';
export { PETS_MIGRATIONS } from './infrastructure/migrations';
