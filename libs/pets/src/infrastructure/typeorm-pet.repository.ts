import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Pet, type NewPet } from '../domain/pet';
import { PetRepository, type PetListQuery } from '../domain/pet.repository';
import { PetMapper } from './pet.mapper';
import { PetRecord } from './pet.record';

@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  constructor(@InjectRepository(PetRecord) private readonly records: Repository<PetRecord>) {
    super();
  }

  async add(pet: NewPet): Promise<Pet> {
    const result = await this.records.insert(PetMapper.toRecord(pet));
    return Pet.identified(Number(result.identifiers[0].id), pet);
  }

  async findById(id: number): Promise<Pet | undefined> {
    const record = await this.records.findOneBy({ id });
    return record ? PetMapper.toDomain(record) : undefined;
  }

  async list({ status, limit }: PetListQuery): Promise<Pet[]> {
    const records = await this.records.find({
      where: status ? { status: status.value } : {},
      order: { id: 'ASC' },
      take: limit,
    });
    return records.map(PetMapper.toDomain);
  }
}
