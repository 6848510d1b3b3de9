// eslint-disable-next-line no-restricted-imports -- the one place that takes Nest's own, to wrap it.
import { Body as NestBody, type PipeTransform, type Type } from '@nestjs/common';

/** Where `@Body()` keeps its parameter's class on the handler. */
const BODY_METADATA = 'petstore:body';

/**
 * Nest's `@Body()` (the whole body, through the global validation pipe), which also says on the handler that the route
 * takes a body and of which class: the no-body guard refuses a body sent to a route without one, and the idempotency
 * interceptor validates a keyed body before its transaction. Import it from `@app/validation` instead of
 * `@nestjs/common` (the lint gate says so): Nest keeps its own record of a handler's parameters to itself.
 */
export function Body(...pipes: Array<Type<PipeTransform> | PipeTransform>): ParameterDecorator {
  return (target, key, index) => {
    NestBody(...pipes)(target, key, index);
    if (key === undefined) return;
    // TypeScript's own record of the parameters' types (emitDecoratorMetadata), written before any decorator runs.
    const types = Reflect.getMetadata('design:paramtypes', target, key) as Array<Type | undefined> | undefined;
    const handler = (target as Record<string | symbol, object>)[key];
    Reflect.defineMetadata(BODY_METADATA, { type: types?.[index] }, handler);
  };
}

/** Whether a handler takes a body (`@Body()`), and the class of its parameter (a DTO, or `undefined` if untyped). */
export function bodyOf(handler: object): { readonly type?: Type } | undefined {
  return Reflect.getMetadata(BODY_METADATA, handler) as { type?: Type } | undefined;
}
