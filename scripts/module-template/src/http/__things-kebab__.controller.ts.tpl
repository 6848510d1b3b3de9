// <sample>
import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_PREFIX, ApiErrorResponses, Responds, setCreatedLocation, setNextPageLink } from '@app/platform';
// </sample>
// <bare>
import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, Responds, setCreatedLocation } from '@app/platform';
// </bare>
import { Scoped } from '@app/auth';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  Idempotent,
} from '@app/idempotency';
import { Body, IntegerIdPipe, NoQueryParameters } from '@app/validation';
import type { FastifyReply } from 'fastify';
// <sample>
import { MAX_PAGE_SIZE, __Things__Service } from '../application/__things-kebab__.service';
// </sample>
// <bare>
import { __Things__Service } from '../application/__things-kebab__.service';
// </bare>
import { __Thing__NotFoundError__EACH:ref(, Unknown__Thing____Ref__Error)__ } from '../domain/__thing-kebab__.errors';
import { Create__Thing__Dto } from './dto/create-__thing-kebab__.dto';
// <sample>
import { List__Things__Query } from './dto/list-__things-kebab__.query';
import { Update__Thing__Dto } from './dto/update-__thing-kebab__.dto';
// </sample>
import { __Thing__Response, to__Thing__Response } from './dto/__thing-kebab__.response';

const ID_PARAMETER = {
  name: '__thing__Id',
  required: true,
  schema: { type: 'integer', format: 'int64' },
  description: 'The id of the __thing_words__.',
} as const;

/**
 * Mounted under the API prefix as a feature of the app module: `/v1/__route__`. Its reads need the scope
 * `__things-kebab__:read`, its writes `__things-kebab__:write` (`@Scoped()`; a route may state another with
 * `@RequiresScope()`).
 */
@ApiTags('__things-kebab__')
@Scoped('__things-kebab__')
@Controller('__route__')
export class __Things__Controller {
  constructor(private readonly __things__: __Things__Service) {}

// <sample>
  @Get()
  @ApiOperation({
    operationId: 'list__Things__',
    summary: 'List __things__',
    description: '__Things__ by ascending id, at most `limit`, a page at a time (follow `Link: rel="next"`).',
  })
  @Responds(200, __Thing__Response, {
    isArray: true,
    maxItems: MAX_PAGE_SIZE,
    description: 'A page of __things__.',
    headers: {
      Link: {
        description: 'RFC 8288: `<...>; rel="next"`, the next page (same `limit`, and the `after` cursor), when more follow.',
        schema: { type: 'string', example: `<${API_PREFIX}/__route__?limit=20&after=20>; rel="next"` },
      },
    },
  })
  @ApiErrorResponses(400)
  async list(
    @Query() query: List__Things__Query,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<__Thing__Response[]> {
    const page = await this.__things__.list(query);
    if (page.nextAfter !== undefined) setNextPageLink(reply, { limit: query.limit, after: page.nextAfter });
    return page.items.map(to__Thing__Response);
  }

// </sample>
  /**
   * Safe to retry with an `Idempotency-Key`: the handler runs in one transaction with the record of its answer. On
   * PostgreSQL that transaction may run again (a serialization failure): the whole handler with it, the service call
   * included. Keep in it only what the database undoes; a side effect (a message, a call out) does not belong here.
   */
  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'create__Thing__',
    summary: 'Add __a_thing__',
    description:
      'Adds __a_thing__, and answers it with the id it was given and its path in `Location`. With an `Idempotency-Key`, a retry of the same request gets the first answer again (`Idempotent-Replayed: true`) and adds nothing.',
  })
  @Responds(201, __Thing__Response, {
    description: 'The __thing_words__, with the id it was given.',
    headers: {
      Location: { description: 'The path of the new __thing_words__.', schema: { type: 'string' } },
      ...IDEMPOTENT_REPLAYED_HEADER,
    },
  })
  @Idempotent()
  @ApiErrorResponses(400, new IdempotencyKeyInUseError(), 413, 415, new IdempotencyKeyReusedError(), __EACH:ref(new Unknown__Thing____Ref__Error(42n))__)
// <sample>
  async create(
    @Body() body: Create__Thing__Dto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<__Thing__Response> {
    const created = await this.__things__.create(body);
// </sample>
// <bare>
  async create(
    @Body() _body: Create__Thing__Dto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<__Thing__Response> {
    const created = await this.__things__.create();
// </bare>
    setCreatedLocation(reply, created.id);
    return to__Thing__Response(created);
  }

  @Get(':__thing__Id')
  @ApiOperation({
    operationId: 'get__Thing__',
    summary: 'Get __a_thing__',
    description: 'The __thing_words__ with this id, or 404 when there is none.',
  })
  @ApiParam(ID_PARAMETER)
  @Responds(200, __Thing__Response, { description: 'The __thing_words__.' })
  @ApiErrorResponses(400, new __Thing__NotFoundError(42n))
  async get(
    @Param('__thing__Id', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
  ): Promise<__Thing__Response> {
    return to__Thing__Response(await this.__things__.get(id));
  }
// <sample>
// <update>

  @Patch(':__thing__Id')
  @ApiOperation({
    operationId: 'update__Thing__',
    summary: 'Change __a_thing__',
    description: 'Changes the fields the body gives; the others keep their values. Answers the __thing_words__ as it is now.',
  })
  @ApiParam(ID_PARAMETER)
  @Responds(200, __Thing__Response, { description: 'The __thing_words__, changed.' })
  @ApiErrorResponses(400, new __Thing__NotFoundError(42n), 413, 415, __EACH:ref(new Unknown__Thing____Ref__Error(42n))__)
  async update(
    @Param('__thing__Id', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
    @Body() body: Update__Thing__Dto,
  ): Promise<__Thing__Response> {
    return to__Thing__Response(await this.__things__.update(id, body));
  }
// </update>
// <delete>

  @Delete(':__thing__Id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'delete__Thing__',
    summary: 'Remove __a_thing__',
    description: 'Removes the __thing_words__; a second request for it is answered 404.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrorResponses(400, new __Thing__NotFoundError(42n))
  async remove(@Param('__thing__Id', IntegerIdPipe) id: bigint, @Query() _query: NoQueryParameters): Promise<void> {
    await this.__things__.remove(id);
  }
// </delete>
// </sample>
}
