import { OperatorAuditRepository } from '@app/audit';
import { randomUUID } from 'node:crypto';
import { insertTestDelivery } from '../deliveries/test-delivery.repository';
import { TestDeliveryDto } from '../dtos/customer.dto';
import { validInput } from '../dtos/validate-input';
import { WebhookNotFoundError } from '../webhook-errors';
import { checkedId, ENDPOINT_SUBJECT, WebhookAdminContext } from './manage-endpoints.usecase';

export const TEST_EVENT_TYPE = 'hookrail.test.v1';

/**
 * A test delivery to one endpoint (of the context's customer): type `hookrail.test.v1` unless another is given, a
 * small payload saying it is a test; the workers send it like any other. Audited.
 */
export async function sendTestDelivery(
  { dataSource, customerId }: WebhookAdminContext,
  endpointId: string,
  input: unknown,
  actor: string,
): Promise<{ deliveryId: string }> {
  checkedId(endpointId);
  const dto = validInput(TestDeliveryDto, input ?? {});
  const eventId = `test_${randomUUID()}`;
  const eventType = dto.eventType ?? TEST_EVENT_TYPE;
  const payload = JSON.stringify({ test: true, message: 'a test delivery sent from hookrail', eventType, eventId });
  const deliveryId = await dataSource.transaction(async (manager) => {
    const id = await insertTestDelivery(manager, {
      endpointId,
      customerId: customerId ?? null,
      eventId,
      eventType,
      payload,
    });
    if (!id) throw new WebhookNotFoundError(`no webhook endpoint with id ${endpointId}`);
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'test',
      subjectType: ENDPOINT_SUBJECT,
      subjectId: endpointId,
      details: { eventType, eventId },
      count: 1,
      affectedIds: [id],
    });
    return id;
  });
  return { deliveryId };
}
