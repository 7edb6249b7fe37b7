import { Controller, Get, Header } from '@nestjs/common';
import { CONSOLE_PAGE } from './console/console.page';

/**
 * GET /admin: the operator console, one static page with no data in it. It asks for the ADMIN_TOKEN and sends it as
 * a bearer token with every API call it makes; the API answers 401 to anything else.
 */
@Controller('admin')
export class ConsoleController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header(
    'content-security-policy',
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
  )
  page(): string {
    return CONSOLE_PAGE;
  }
}
