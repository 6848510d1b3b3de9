import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, Responds } from '@app/platform';
import { Scoped } from '@app/auth';
import { Stability } from '@app/stability';
import { NoQueryParameters } from '@app/validation';
import { InventoryService } from '../application/inventory.service';

/** Swagger Petstore's `getInventory`: a map of counts by status name. */
const INVENTORY_SCHEMA = {
  type: 'object',
  description: 'How many pets have each status, by the name of the status.',
  additionalProperties: { type: 'integer', format: 'int64', minimum: 0 },
  example: { available: 12, pending: 3, sold: 40 },
};

@ApiTags('store')
@Scoped('store')
@Controller('store/inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'getInventory',
    summary: 'Pets by status',
    description:
      "How many pets have each status: every status a pet has had, with its count now. Kept from the catalogue's " +
      'events, it counts a change within about a second of its commit (decision 0034); a pet without a status is ' +
      'in no count.',
  })
  @Responds(200, INVENTORY_SCHEMA, { description: 'Pets by status.' })
  @ApiErrorResponses(400)
  get(@Query() _query: NoQueryParameters): Promise<Record<string, number>> {
    return this.inventory.get();
  }
}
