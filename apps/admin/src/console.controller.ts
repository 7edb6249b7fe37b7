import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { notFound } from '@app/http';
import { consoleAsset } from './console/console-assets';
import { CONSOLE_PAGE } from './console/console.page';

const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'";

/**
 * GET /admin: the operator console, one static page with no data in it. It asks for the ADMIN_TOKEN and sends it as
 * a bearer token with every API call it makes; the API answers 401 to anything else. GET /admin/assets/<file>: the
 * charting library it loads (public code from the npm package, no data, no token needed).
 */
@Controller('admin')
export class ConsoleController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('content-security-policy', CONTENT_SECURITY_POLICY)
  page(): string {
    return CONSOLE_PAGE;
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const asset = consoleAsset(name);
    if (!asset) throw notFound(`no console asset named ${name.slice(0, 100)}`);
    reply.header('content-type', asset.type).header('cache-control', 'public, max-age=86400');
    return asset.body;
  }
}
