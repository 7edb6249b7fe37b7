import { CatalogGroup } from '@app/contracts';
import { Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { CONSUMER_SERVICES, ConsumerService } from './consumer-services';

/**
 * The consumer groups as the event catalogue describes them: name, topics and owner from the services registry, and
 * the event types of the `@EventPattern` handlers in the group's module (and the modules it imports). Nothing to
 * declare twice: a new group appears in the catalogue once it is in the registry.
 */
export function describeConsumerGroups(
  services: Readonly<Record<string, ConsumerService>> = CONSUMER_SERVICES,
): CatalogGroup[] {
  return Object.values(services).map((service) => ({
    group: service.group,
    topics: [...service.topics],
    owner: { team: service.owner.team, contact: service.owner.contact },
    handles: [...handledTypes(service.module, new Set())].sort(),
  }));
}

function handledTypes(module: Type<unknown>, seen: Set<unknown>): Set<string> {
  const types = new Set<string>();
  if (seen.has(module)) return types;
  seen.add(module);
  const controllers: Type<unknown>[] = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? [];
  for (const controller of controllers) {
    for (let proto = controller.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name)?.value;
        const patterns: unknown = typeof method === 'function' ? Reflect.getMetadata(PATTERN_METADATA, method) : [];
        for (const pattern of Array.isArray(patterns) ? patterns : [])
          if (typeof pattern === 'string') types.add(pattern);
      }
    }
  }
  const imports: unknown[] = Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? [];
  for (const imported of imports) {
    if (typeof imported === 'function')
      for (const type of handledTypes(imported as Type<unknown>, seen)) types.add(type);
  }
  return types;
}
