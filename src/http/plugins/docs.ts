/**
 * OpenAPI 3.1 from the route schemas (@fastify/swagger), served keyless at /openapi.json, and
 * the browsable Swagger UI at /docs. Must be registered before the routes it documents.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from '../app-type.ts';

export async function registerDocs(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cross-market item pricing service',
        version: '1',
        description:
          'Read-only prices for CS2 and Rust items across marketplaces, in integer USD cents. ' +
          'Errors use one envelope: {statusCode, message, error, code}. Unknown query parameters are ignored.',
      },
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Send `ApiKey <key>` (or `Bearer <key>`).',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
