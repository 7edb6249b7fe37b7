import { ConsolePanel } from '../console-parts';
import { backlogPanel } from './backlog.panel';
import { breakersPanel } from './breakers.panel';
import { chartsPanel } from './charts.panel';
import { consumerGroupsPanel } from './consumer-groups.panel';
import { overdueJobsPanel } from './overdue-jobs.panel';

/** The overview page's panels, top to bottom. A new panel: a file beside these and one line here. */
export const CONSOLE_PANELS: readonly ConsolePanel[] = [
  overdueJobsPanel,
  breakersPanel,
  backlogPanel,
  chartsPanel,
  consumerGroupsPanel,
];
