import { Controller, Get, Header } from '@nestjs/common';
import { consoleAsset } from '../../console/console-assets';
import { PORTAL_PAGE, PORTAL_STYLES } from './portal.page';
import { PORTAL_SCRIPT } from './portal.script';

/**
 * The page's policy: its own script and stylesheet (no inline code), calls to its own origin only, no frames, no
 * forms sent anywhere, no referrer.
 */
export const PORTAL_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * GET /portal: the customer portal, one static page with no data in it, opened through a one-time link
 * (`/portal#link=<token>`); GET /portal/portal.js, /portal/portal.css and /portal/favicon.svg: its script, its
 * stylesheet and its icon. Nothing here needs a token: the page calls /customer/v1 with the session it gets for the
 * link.
 */
@Controller('portal')
export class PortalPageController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('content-security-policy', PORTAL_CONTENT_SECURITY_POLICY)
  @Header('referrer-policy', 'no-referrer')
  @Header('x-content-type-options', 'nosniff')
  page(): string {
    return PORTAL_PAGE;
  }

  @Get('portal.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('x-content-type-options', 'nosniff')
  script(): string {
    return PORTAL_SCRIPT;
  }

  @Get('portal.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('x-content-type-options', 'nosniff')
  styles(): string {
    return PORTAL_STYLES;
  }

  @Get('favicon.svg')
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', 'public, max-age=86400')
  icon(): Buffer | undefined {
    return consoleAsset('favicon.svg')?.body;
  }
}
