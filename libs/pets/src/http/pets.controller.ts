import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  Idempotent,
} from '@app/idempotency';
import { API_PREFIX, ApiErrorResponses, Responds, setCreatedLocation, setNextPageLink } from '@app/platform';
import { Body, IntegerIdPipe, NoQueryParameters } from '@app/validation';
import { Deprecated } from '@app/deprecation';
import { Scoped } from '@app/auth';
import type { FastifyReply } from 'fastify';
import { MAX_PAGE_SIZE, PetsService } from '../application/pets.service';
import { PetNotFoundError } from '../domain/pet.errors';
import { CreatePetDto } from './dto/create-pet.dto';
import { ListPetsQuery } from './dto/list-pets.query';
import { PetResponse, toPetResponse } from './dto/pet.response';

@ApiTags('pets')
@Scoped('pets')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List pets',
    description: 'Pets by ascending id, at most `limit`, only those with `status` when given.',
  })
  @Responds(200, PetResponse, {
    isArray: true,
    maxItems: MAX_PAGE_SIZE,
    description: 'A page of pets.',
    headers: {
      Link: {
        description:
          'RFC 8288: `<...>; rel="next"`, the next page (same `limit` and `status`, and the `after` cursor), when more pets match. Absent on the last page.',
        schema: { type: 'string', example: `<${API_PREFIX}/pets?limit=20&after=20>; rel="next"` },
      },
    },
  })
  @ApiErrorResponses(400)
  async list(@Query() query: ListPetsQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<PetResponse[]> {
    const page = await this.pets.list(query);
    if (page.nextAfter !== undefined) {
      setNextPageLink(reply, { limit: query.limit, status: query.status, after: page.nextAfter });
    }
    return page.items.map(toPetResponse);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Add a pet',
    description:
      'Adds a pet; the service assigns its `id` and answers with the pet and its `Location`. With an `Idempotency-Key`, a retry of the same request gets the first answer again (`Idempotent-Replayed: true`) and adds nothing.',
  })
  @Responds(201, PetResponse, {
    description: 'The pet, with the id it was given.',
    headers: {
      Location: {
        description: 'The path of the new pet.',
        schema: { type: 'string', example: `${API_PREFIX}/pets/1` },
      },
      ...IDEMPOTENT_REPLAYED_HEADER,
    },
  })
  @Idempotent()
  @ApiErrorResponses(400, new IdempotencyKeyInUseError(), 413, 415, new IdempotencyKeyReusedError())
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
  @ApiErrorResponses(400, new PetNotFoundError(42))
  async get(@Param('petId', IntegerIdPipe) petId: bigint, @Query() _query: NoQueryParameters): Promise<PetResponse> {
    return toPetResponse(await this.pets.get(petId));
  }
}
