import { Module } from '@nestjs/common';
import { DomainEvents, UnitOfWork } from '@app/platform/ports';
import { PetCatalog } from './application/pet-catalog';
import { PetsService } from './application/pets.service';
import { PetRepository } from './domain/pet.repository';
import { PetsController } from './http/pets.controller';
import { SqlPetRepository } from './infrastructure/sql-pet.repository';

/**
 * The pet catalogue. The application classes are plain TypeScript, built here
 * from the repository port; other modules get only the {@link PetCatalog}.
 */
@Module({
  controllers: [PetsController],
  providers: [
    { provide: PetRepository, useClass: SqlPetRepository },
    {
      provide: PetsService,
      inject: [PetRepository, DomainEvents],
      useFactory: (pets: PetRepository, events: DomainEvents) => new PetsService(pets, events),
    },
    {
      provide: PetCatalog,
      inject: [PetRepository, UnitOfWork, DomainEvents],
      useFactory: (pets: PetRepository, unitOfWork: UnitOfWork, events: DomainEvents) =>
        new PetCatalog(pets, unitOfWork, events),
    },
  ],
  exports: [PetCatalog],
})
export class PetsModule {}
