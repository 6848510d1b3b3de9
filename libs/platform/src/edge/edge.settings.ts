import { registerAs } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { ServerEdge } from './server-edge';

/** The edge's settings as Nest's configuration names them (`edge`): read from the environment when the application starts. */
export const edgeConfig = registerAs('edge', (): ServerEdge => new ServerEdge(AppConfig.fromEnvironment(process.env)));
