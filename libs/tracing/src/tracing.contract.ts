import { Inject, Injectable } from '@nestjs/common';
import { OperationContract } from '@app/platform';
import { tracingConfig, type TracingSettings } from './tracing.settings';

/** With tracing on, every answer says its trace (W3C Trace Context Level 2's `traceresponse`, which CORS exposes). */
@Injectable()
@OperationContract()
export class TracingContract implements OperationContract {
  readonly sends: readonly string[];

  constructor(@Inject(tracingConfig.KEY) settings: TracingSettings) {
    this.sends = settings.endpoint === undefined ? [] : ['traceresponse'];
  }
}
