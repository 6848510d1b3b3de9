import type { ExecutionContext, Type } from '@nestjs/common';
import { PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

const bodyTypes = new WeakMap<object, Type<unknown> | undefined>();

/** The class of a handler's `@Body()` parameter, read from Nest's metadata once per handler. */
export function bodyTypeOf(
  controller: Type<unknown>,
  handler: ReturnType<ExecutionContext['getHandler']>,
): Type<unknown> | undefined {
  if (bodyTypes.has(handler)) return bodyTypes.get(handler);
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype as object, handler.name) ?? []) as Array<
    Type<unknown> | undefined
  >;
  const body = Object.entries(args).find(
    ([key, arg]) => key.startsWith(`${RouteParamtypes.BODY}:`) && arg.data === undefined,
  );
  const type = body ? types[body[1].index] : undefined;
  bodyTypes.set(handler, type);
  return type;
}
