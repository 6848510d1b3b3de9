import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, Responds, setCreatedLocation } from '@app/platform';
import { IntegerIdPipe, NoQueryParameters } from '@app/validation';
import type { FastifyReply } from 'fastify';
import { __Things__Service } from '../application/__things-kebab__.service';
import { Create__Thing__Dto } from './dto/create-__thing-kebab__.dto';
// <sample>
import { List__Things__Query } from './dto/list-__things-kebab__.query';
// </sample>
import { __Thing__Response, to__Thing__Response } from './dto/__thing-kebab__.response';

/** Mounted under the API prefix by the feature registry: `/v1/__route__`. */
@ApiTags('__things-kebab__')
@Controller('__route__')
export class __Things__Controller {
  constructor(private readonly __things__: __Things__Service) {}

// <sample>
  @Get()
  @ApiOperation({
    operationId: 'list__Things__',
    summary: 'List __things__ by ascending id',
    description: 'At most `limit` __things__, by ascending id.',
  })
  @Responds(200, __Thing__Response, { isArray: true, description: 'At most `limit` __things__.' })
  @ApiErrorResponses(400)
  async list(@Query() query: List__Things__Query): Promise<__Thing__Response[]> {
    return (await this.__things__.list(query.limit)).map(to__Thing__Response);
  }
// </sample>

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'create__Thing__',
    summary: 'Add __a_thing__',
    description: 'Adds __a_thing__, and answers it with the id it was given and its path in `Location`.',
  })
  @Responds(201, __Thing__Response, {
    description: 'The __thing__, with the id it was given.',
    headers: { Location: { description: 'The path of the new __thing__.', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(400, 413, 415)
// <sample>
  async create(@Body() body: Create__Thing__Dto, @Res({ passthrough: true }) reply: FastifyReply): Promise<__Thing__Response> {
    const created = await this.__things__.create(body);
// </sample>
// <bare>
  async create(@Body() _body: Create__Thing__Dto, @Res({ passthrough: true }) reply: FastifyReply): Promise<__Thing__Response> {
    const created = await this.__things__.create();
// </bare>
    setCreatedLocation(reply, created.id);
    return to__Thing__Response(created);
  }

  @Get(':__thing__Id')
  @ApiOperation({
    operationId: 'get__Thing__',
    summary: 'Get __a_thing__',
    description: 'The __thing__ with this id, or 404 when there is none.',
  })
  @ApiParam({ name: '__thing__Id', required: true, schema: { type: 'integer', format: 'int64' } })
  @Responds(200, __Thing__Response, { description: 'The __thing__.' })
  @ApiErrorResponses(400, 404)
  async get(
    @Param('__thing__Id', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
  ): Promise<__Thing__Response> {
    return to__Thing__Response(await this.__things__.get(id));
  }
}
