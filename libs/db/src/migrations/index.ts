import { InboundEventsAndOutbox1764450000000 } from './1764450000000-InboundEventsAndOutbox';
import { RelayLanesAndJobs1764460000000 } from './1764460000000-RelayLanesAndJobs';
import { ConsumerRuntime1764470000001 } from './1764470000001-ConsumerRuntime';
import { LedgerEntries1764470000002 } from './1764470000002-LedgerEntries';
import { DeadLetters1764490000001 } from './1764490000001-DeadLetters';
import { Notifications1764500000001 } from './1764500000001-Notifications';
import { AgentTasks1764500000002 } from './1764500000002-AgentTasks';
import { RetentionIndexes1764510000001 } from './1764510000001-RetentionIndexes';
import { OutboxNotifyAfterCommit1764520000001 } from './1764520000001-OutboxNotifyAfterCommit';
import { DependencyBreakers1764540000001 } from './1764540000001-DependencyBreakers';
import { AgentTaskDependencyWaits1764541000001 } from './1764541000001-AgentTaskDependencyWaits';
import { Sagas1764550000001 } from './1764550000001-Sagas';
import { SagaParticipants1764550000002 } from './1764550000002-SagaParticipants';
import { OutboundWebhooks1764560000001 } from './1764560000001-OutboundWebhooks';
import { OperationsSchema1764570000001 } from './1764570000001-OperationsSchema';
import { InboundEventsAggregateIndex1764570000002 } from './1764570000002-InboundEventsAggregateIndex';
import { AnalyticsDailyTotals1764580000001 } from './1764580000001-AnalyticsDailyTotals';
import { ParkedKeys1764590000001 } from './1764590000001-ParkedKeys';
import { WebhookFailedDeliveriesIndex1764610000001 } from './1764610000001-WebhookFailedDeliveriesIndex';
import { ConsumerGroupConcurrency1764620000001 } from './1764620000001-ConsumerGroupConcurrency';
import { SourceRejections1764632000001 } from './1764632000001-SourceRejections';
import { SagaRetriesAndCancellation1764633000001 } from './1764633000001-SagaRetriesAndCancellation';
import { WebhookLeaseOwnersAndReplays1764635000001 } from './1764635000001-WebhookLeaseOwnersAndReplays';
import { OutboxParkedAndOneAudit1764640000001 } from './1764640000001-OutboxParkedAndOneAudit';
import { WebhookDueInOrderIndex1764635000002 } from './1764635000002-WebhookDueInOrderIndex';
import { TaskTablesOneShape1764650000001 } from './1764650000001-TaskTablesOneShape';
import { WebhookDeliveryTraceparent1764660000001 } from './1764660000001-WebhookDeliveryTraceparent';
import { OperatorTokens1764670000001 } from './1764670000001-OperatorTokens';
import { WebhookCustomers1764680000001 } from './1764680000001-WebhookCustomers';
import { WebhookPayloadFilters1764680000002 } from './1764680000002-WebhookPayloadFilters';
import { WebhookDeliveryProducerId1764690000001 } from './1764690000001-WebhookDeliveryProducerId';
import { AgentTaskLeaseOwners1764700000001 } from './1764700000001-AgentTaskLeaseOwners';

/** Every migration, oldest first. A new one is added here and in its own file. */
export const MIGRATIONS = [
  InboundEventsAndOutbox1764450000000,
  RelayLanesAndJobs1764460000000,
  ConsumerRuntime1764470000001,
  LedgerEntries1764470000002,
  DeadLetters1764490000001,
  Notifications1764500000001,
  AgentTasks1764500000002,
  RetentionIndexes1764510000001,
  OutboxNotifyAfterCommit1764520000001,
  DependencyBreakers1764540000001,
  AgentTaskDependencyWaits1764541000001,
  Sagas1764550000001,
  SagaParticipants1764550000002,
  OutboundWebhooks1764560000001,
  OperationsSchema1764570000001,
  InboundEventsAggregateIndex1764570000002,
  AnalyticsDailyTotals1764580000001,
  ParkedKeys1764590000001,
  WebhookFailedDeliveriesIndex1764610000001,
  ConsumerGroupConcurrency1764620000001,
  SourceRejections1764632000001,
  SagaRetriesAndCancellation1764633000001,
  WebhookLeaseOwnersAndReplays1764635000001,
  WebhookDueInOrderIndex1764635000002,
  OutboxParkedAndOneAudit1764640000001,
  TaskTablesOneShape1764650000001,
  WebhookDeliveryTraceparent1764660000001,
  OperatorTokens1764670000001,
  WebhookCustomers1764680000001,
  WebhookPayloadFilters1764680000002,
  WebhookDeliveryProducerId1764690000001,
  AgentTaskLeaseOwners1764700000001,
];
