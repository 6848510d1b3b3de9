import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PetsService } from './application/pets.service';
import { PetRepository } from './domain/pet.repository';
import { PetsController } from './http/pets.controller';
import { PetRecord } from './infrastructure/pet.record';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository';

@Module({
  imports: [TypeOrmModule.forFeature([PetRecord])],
  controllers: [PetsController],
  providers: [PetsService, { provide: PetRepository, useClass: TypeOrmPetRepository }],
  exports: [PetsService],
})
export class PetsModule {}
