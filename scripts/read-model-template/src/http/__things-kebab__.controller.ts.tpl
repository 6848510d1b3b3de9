import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_PREFIX, ApiErrorResponses, Responds, setNextPageLink } from '@app/platform';
import { Scoped } from '@app/auth';
import { NoQueryParameters } from '@app/validation';
import type { FastifyReply } from 'fastify';
import { MAX_PAGE_SIZE, __Things__Service } from '../application/__things-kebab__.service';
import { __THING___KEY_MAX_LENGTH } from '../domain/__thing-kebab__';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import { List__Things__Query } from './dto/list-__things-kebab__.query';
import { __Thing__Response, to__Thing__Response } from './dto/__thing-kebab__.response';

/**
 * Mounted under the API prefix as a feature of the app module: `/v1/__route__`, read only (the events write it). Its
 * reads need the scope `__things-kebab__:read` (`@Scoped()`).
 */
@ApiTags('__things-kebab__')
@Scoped('__things-kebab__')
@Controller('__route__')
export class __Things__Controller {
  constructor(private readonly __things__: __Things__Service) {}

  @Get()
  @ApiOperation({
    operationId: 'list__Things__',
    summary: 'List __things__',
    description:
      'The counts, in the order their keys were first heard, at most `limit`, a page at a time (follow `Link: rel="next"`). Each event is counted once, within about a second of its commit.',
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
    return page.__things__.map(to__Thing__Response);
  }

  @Get(':key')
  @ApiOperation({
    operationId: 'get__Thing__',
    summary: 'Get __a_thing__',
    description: 'The count under this key, or 404 when no event was counted under it.',
  })
  @ApiParam({
    name: 'key',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: __THING___KEY_MAX_LENGTH },
    description: 'What the events are counted under.',
  })
  @Responds(200, __Thing__Response, { description: 'The __thing_words__.' })
  @ApiErrorResponses(400, new __Thing__NotFoundError('__first_event__'))
  async get(@Param('key') key: string, @Query() _query: NoQueryParameters): Promise<__Thing__Response> {
    return to__Thing__Response(await this.__things__.get(key));
  }
}
