// npm run kafka:acls — the ACLs each hookrail program needs on a Kafka cluster with an authorizer: printed as
// kafka-acls commands, or with --apply created through this connection (an administrator's: KAFKA_SASL_* of a
// principal allowed to alter ACLs). It reads topics:create's configuration; names carry KAFKA_NAMESPACE; principals are User:hookrail-<program>.
import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs';
import { aclCommand, programAcls } from '../acls';
import { createKafka } from '../kafka-client';
import { explainKafkaError } from '../kafka-errors';
import { TopicsCreateEnv } from './topics-create.env';

async function main(): Promise<void> {
  const env = loadConfig(TopicsCreateEnv);
  const acls = programAcls({ namespace: env.KAFKA_NAMESPACE });
  if (!process.argv.includes('--apply')) {
    for (const entry of acls) console.log(aclCommand(entry));
    return;
  }
  const admin = createKafka('hookrail-acls', env).admin();
  try {
    await admin.connect();
    await admin.createAcls({
      acl: acls.map((entry) => ({
        principal: entry.principal,
        host: '*',
        operation: AclOperationTypes[entry.operation],
        permissionType: AclPermissionTypes.ALLOW,
        resourceType: AclResourceTypes[entry.resource],
        resourceName: entry.name,
        resourcePatternType: ResourcePatternTypes.LITERAL,
      })),
    });
  } catch (error) {
    throw new Error(explainKafkaError(error, env) ?? (error as Error).message);
  } finally {
    await admin.disconnect();
  }
  const principals = new Set(acls.map((entry) => entry.principal));
  console.log(`kafka:acls: ${acls.length} ACLs for ${[...principals].join(', ')}`);
}

main().catch((error: Error) => {
  console.error(`kafka:acls: failed: ${error.message}`);
  process.exit(1);
});
