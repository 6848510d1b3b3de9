import { Injectable } from '@nestjs/common';

/** Whether the service drains for shutdown: readiness then answers 503, and every answer closes its connection. */
@Injectable()
export class Draining {
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  begin(): void {
    this.draining = true;
  }
}
