import { Injectable } from '@nestjs/common';
import { DomainEvents } from '@app/platform/ports';
// <each event>
import type { __Event__ } from '@app/__eventModule__';
// </each>
import { __Things__Service } from '../application/__things-kebab__.service';

/**
 * The read model's subscriptions: each handler runs after the publisher's commit, in a transaction with the
 * subscription's progress, so each event counts once; two subscriptions see their events in no common order
 * (docs/extending.md, "Reacting to another module", "A read model, generated"). Each counts its event under its
 * name: count by what the event says instead, with a key for a field the event may leave out
 * (`({ payload }) => __things__.count(payload.status ?? 'none')`: a pet created without a status has none, and a
 * handler that throws on it parks that event), or keep a table of your own. The subscribers' names keep their
 * progress: never rename them once deployed.
 */
@Injectable()
export class __Things__Subscriptions {
  constructor(events: DomainEvents, __things__: __Things__Service) {
// <each event>
    events.subscribe<__Event__>({
      subscriber: '__things-kebab__.on-__eventModule__-__event-kebab__',
      event: '__event__',
      handle: () => __things__.count('__event__'),
    });
// </each>
  }
}
