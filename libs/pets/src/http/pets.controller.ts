import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, Deprecated } from '@app/platform';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { PetsService } from '../application/pets.service';
import { CreatePetDto } from './dto/create-pet.dto';
import { ListPetsQuery } from './dto/list-pets.query';
import { PET_JSON_SCHEMA, PetResponse, toPetResponse } from './dto/pet.response';
import { PetIdPipe } from './pet-id.pipe';

export const PETS_PATH = '/v1/pets';

const GET_PET_DEPRECATION = {
  operationId: 'getPet',
  since: new Date('2026-11-21T00:00:00Z'),
  sunset: new Date('2030-12-05T00:00:00Z'),
  successor: PETS_PATH,
};

@ApiTags('pets')
@ApiBearerAuth('bearer')
@ApiProduces('application/json')
@Controller(PETS_PATH)
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({ operationId: 'listPets', summary: 'List pets', description: 'Pets by ascending id, at most `limit`, only those with `status` when given.' })
  @ApiResponse({ status: 200, description: 'A page of pets.', type: PetResponse, isArray: true })
  @ApiErrorResponses(400, 401, 429, 500, 503)
  @RouteSchema({ response: { 200: { type: 'array', items: PET_JSON_SCHEMA } } })
  async list(@Query() query: ListPetsQuery): Promise<PetResponse[]> {
    const pets = await this.pets.list(query);
    return pets.map(toPetResponse);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createPet', summary: 'Add a pet' })
  @ApiConsumes('application/json')
  @ApiBody({ type: CreatePetDto, required: true })
  @ApiResponse({
    status: 201,
    description: 'The pet, with the id it was given.',
    type: PetResponse,
    headers: { Location: { description: 'The path of the new pet.', schema: { type: 'string', example: '/v1/pets/1' } } },
  })
  @ApiErrorResponses(400, 401, 413, 415, 429, 500, 503)
  @RouteSchema({ response: { 201: PET_JSON_SCHEMA } })
  async create(@Body() body: CreatePetDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<PetResponse> {
    const pet = await this.pets.create(body);
    reply.header('location', `${PETS_PATH}/${pet.id}`);
    return toPetResponse(pet);
  }

  @Get(':petId')
  @Deprecated(GET_PET_DEPRECATION)
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get a pet (deprecated)',
    description: 'Deprecated; removed on 5 December 2030. Use `GET /pets` with the `status` filter.',
    deprecated: true,
  })
  @ApiParam({ name: 'petId', required: true, schema: { type: 'integer', format: 'int64' }, description: 'The id of the pet.' })
  @ApiResponse({
    status: 200,
    description: 'The pet.',
    type: PetResponse,
    headers: {
      Deprecation: { description: 'RFC 9745: when the operation was deprecated.', schema: { type: 'string', example: '@1795219200' } },
      Sunset: { description: 'RFC 8594: when it stops being served.', schema: { type: 'string', example: 'Thu, 05 Dec 2030 00:00:00 GMT' } },
      Link: { description: 'The successor operation.', schema: { type: 'string', example: '</v1/pets>; rel="successor-version"' } },
    },
  })
  @ApiErrorResponses(400, 401, 404, 429, 500, 503)
  @RouteSchema({ response: { 200: PET_JSON_SCHEMA } })
  async get(@Param('petId', PetIdPipe) petId: number): Promise<PetResponse> {
    return toPetResponse(await this.pets.get(petId));
  }
}
