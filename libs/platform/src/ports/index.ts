// The platform's ports for application layers: plain TypeScript, which `application/` may import (as
// `@app/platform/ports`), as a domain may import `@app/platform/errors`.
export { UnitOfWork } from './unit-of-work';
export { DomainEvents, type DomainEvent, type NewDomainEvent, type Subscription } from './domain-events';
