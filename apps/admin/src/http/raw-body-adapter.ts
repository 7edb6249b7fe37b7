import { FastifyAdapter } from '@nestjs/platform-fastify';

/**
 * A Fastify adapter whose request bodies stay Buffers (up to `bodyLimit`): the use cases parse the JSON and name what
 * is wrong with it. Shared by the operator API and the customer API.
 */
export function rawBodyAdapter(bodyLimit: number, maxParamLength = 100): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit,
    logger: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength },
    skipMiddie: true,
  });
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
  return adapter;
}
