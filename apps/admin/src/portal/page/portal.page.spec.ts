import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { PORTAL_CONTENT_SECURITY_POLICY, PortalPageController } from './portal-page.controller';
import { PORTAL_ASSETS, PORTAL_PAGE, PORTAL_STYLES } from './portal.page';
import { PORTAL_SCRIPT } from './portal.script';

@Module({ controllers: [PortalPageController] })
class PortalPageOnlyModule {}

describe('the customer portal page', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(PortalPageOnlyModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url });

  it('loads nothing from another host: its only URLs are its own paths, and http(s) appears only in text it shows', () => {
    const shown = /placeholder="[^"]*"|>[^<]*</g;
    expect(PORTAL_PAGE.replace(shown, '')).not.toMatch(/https?:|\/\//);
    const references = [...PORTAL_PAGE.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((match) => match[1]);
    expect(references.sort()).toEqual(Object.values(PORTAL_ASSETS).sort());
    expect(PORTAL_STYLES).not.toMatch(/url\(|@import|https?:/);
    expect(PORTAL_SCRIPT).not.toMatch(/https?:\/\//);
    expect(PORTAL_PAGE).not.toMatch(/<script>|<style>|\son[a-z]+=/);
  });

  it('never puts anything in the page as HTML', () => {
    expect(PORTAL_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
  });

  it('serves the page with a policy that allows only its own script, stylesheet and API, in no frame, never cached', async () => {
    const response = await get('/portal');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(PORTAL_PAGE);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PORTAL_CONTENT_SECURITY_POLICY,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
    const directives = Object.fromEntries(
      PORTAL_CONTENT_SECURITY_POLICY.split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self'",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it.each([
    [PORTAL_ASSETS.script, 'text/javascript; charset=utf-8', PORTAL_SCRIPT],
    [PORTAL_ASSETS.styles, 'text/css; charset=utf-8', PORTAL_STYLES],
  ])('serves %s as %s', async (url, type, body) => {
    const response = await get(url);
    expect({ status: response.statusCode, type: response.headers['content-type'] }).toEqual({ status: 200, type });
    expect(response.body).toBe(body);
  });

  it('serves its icon', async () => {
    const response = await get(PORTAL_ASSETS.icon);
    expect({ status: response.statusCode, type: response.headers['content-type'] }).toEqual({
      status: 200,
      type: 'image/svg+xml',
    });
    expect(response.body).toMatch(/^<svg /);
  });

  it('parses as a script', () => {
    expect(() => new Function(PORTAL_SCRIPT)).not.toThrow();
  });
});
