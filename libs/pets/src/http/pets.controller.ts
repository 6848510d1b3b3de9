import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { API_PREFIX, ApiErrorResponses, Deprecated, IntegerIdPipe, Responds, setCreatedLocation } from '@app/platform';
import type { FastifyReply } from 'fastify';
import { PetsService } from '../application/pets.service';
import { CreatePetDto } from './dto/create-pet.dto';
import { ListPetsQuery } from './dto/list-pets.query';
import { PetResponse, toPetResponse } from './dto/pet.response';

@ApiTags('pets')
@ApiBearerAuth('bearer')
@ApiProduces('application/json')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List pets',
    description: 'Pets by ascending id, at most `limit`, only those with `status` when given.',
  })
  @Responds(200, PetResponse, { isArray: true, description: 'A page of pets.' })
  @ApiErrorResponses(400, 401, 429, 500, 503)
  async list(@Query() query: ListPetsQuery): Promise<PetResponse[]> {
    const pets = await this.pets.list(query);
    return pets.map(toPetResponse);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createPet', summary: 'Add a pet' })
  @ApiConsumes('application/json')
  @ApiBody({ type: CreatePetDto, required: true })
  @Responds(201, PetResponse, {
    description: 'The pet, with the id it was given.',
    headers: {
      Location: {
        description: 'The path of the new pet.',
        schema: { type: 'string', example: `${API_PREFIX}/pets/1` },
      },
    },
  })
  @ApiErrorResponses(400, 401, 413, 415, 429, 500, 503)
  async create(@Body() body: CreatePetDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<PetResponse> {
    const pet = await this.pets.create(body);
    setCreatedLocation(reply, pet.id);
    return toPetResponse(pet);
  }

  @Get(':petId')
  @Deprecated({
    operationId: 'getPet',
    since: new Date('2026-11-21T00:00:00Z'),
    sunset: new Date('2030-12-05T00:00:00Z'),
    successor: '/pets',
  })
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get a pet (deprecated)',
    description: 'Deprecated; removed on 5 December 2030. Use `GET /pets` with the `status` filter.',
  })
  @ApiParam({
    name: 'petId',
    required: true,
    schema: { type: 'integer', format: 'int64' },
    description: 'The id of the pet.',
  })
  @Responds(200, PetResponse, { description: 'The pet.' })
  @ApiErrorResponses(400, 401, 404, 429, 500, 503)
  async get(@Param('petId', IntegerIdPipe) petId: bigint): Promise<PetResponse> {
    return toPetResponse(await this.pets.get(petId));
  }
}
