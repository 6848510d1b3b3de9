import { Injectable } from '@nestjs/common';

/**
 * Whether the service is draining for shutdown: graceful shutdown begins it; readiness then answers 503 and every
 * answer closes its connection (pipeline/close-when-draining.ts).
 */
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
