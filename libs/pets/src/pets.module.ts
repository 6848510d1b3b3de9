import { Module } from '@nestjs/common';
import { DatabaseModule } from '@app/database';
import { EventsModule } from '@app/events';
import { IdempotencyModule } from '@app/idempotency';
import { UnitOfWork } from '@app/platform/ports';
import { PetCatalog } from './application/pet-catalog';
import { PetsService } from './application/pets.service';
import { PetRepository } from './domain/pet.repository';
import { PetsController } from './http/pets.controller';
import { PETS_MIGRATIONS } from './infrastructure/migrations';
import { PetRecord } from './infrastructure/pet.record';
import { SqlPetRepository } from './infrastructure/sql-pet.repository';

/**
 * The pet catalogue. The application classes are plain TypeScript, built here
 * from the repository port; other modules get only the {@link PetCatalog}.
 */
@Module({
  imports: [
    DatabaseModule.forFeature({ entities: [PetRecord], migrations: PETS_MIGRATIONS }),
    EventsModule,
    IdempotencyModule,
  ],
  controllers: [PetsController],
  providers: [
    { provide: PetRepository, useClass: SqlPetRepository },
    {
      provide: PetsService,
      inject: [PetRepository, UnitOfWork],
      useFactory: (pets: PetRepository, unitOfWork: UnitOfWork) => new PetsService(pets, unitOfWork),
    },
    {
      provide: PetCatalog,
      inject: [PetRepository, UnitOfWork],
      useFactory: (pets: PetRepository, unitOfWork: UnitOfWork) => new PetCatalog(pets, unitOfWork),
    },
  ],
  exports: [PetCatalog],
})
export class PetsModule {}
