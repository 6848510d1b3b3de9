// The building blocks of a module's domain: plain TypeScript, which `domain/` may import (as `@app/platform/domain`).
export { AggregateRoot } from './aggregate-root';
export { pageOf, type Page, type PageRequest } from './page';
export type { DomainEvent, NewDomainEvent } from '../ports/domain-events';
