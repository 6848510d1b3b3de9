import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { Deprecated } from '@app/platform';
import type { FastifyReply } from 'fastify';
import { PetsService } from '../application/pets.service';
import { CreatePetDto } from './dto/create-pet.dto';
import { ListPetsQuery } from './dto/list-pets.query';
import { toPetResponse, type PetResponse } from './dto/pet.response';
import { PetIdPipe } from './pet-id.pipe';

export const PETS_PATH = '/v1/pets';

@Controller(PETS_PATH)
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  /** listPets */
  @Get()
  async list(@Query() query: ListPetsQuery): Promise<PetResponse[]> {
    const pets = await this.pets.list(query);
    return pets.map(toPetResponse);
  }

  /** createPet */
  @Post()
  @HttpCode(201)
  async create(@Body() body: CreatePetDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<PetResponse> {
    const pet = await this.pets.create(body);
    reply.header('location', `${PETS_PATH}/${pet.id}`);
    return toPetResponse(pet);
  }

  /** getPet: deprecated in 1.0.0, removed on 5 December 2030; `GET /v1/pets` replaces it. */
  @Get(':petId')
  @Deprecated({
    since: new Date('2026-11-21T00:00:00Z'),
    sunset: new Date('2030-12-05T00:00:00Z'),
    successor: PETS_PATH,
  })
  async get(@Param('petId', PetIdPipe) petId: number): Promise<PetResponse> {
    return toPetResponse(await this.pets.get(petId));
  }
}
