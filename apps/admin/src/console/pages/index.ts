import { ConsolePage } from '../console-parts';
import { catalogPage } from './catalog.page';
import { customersPage } from './customers.page';
import { deadLettersPage } from './dead-letters.page';
import { eventTrailPage } from './event-trail.page';
import { jobsPage } from './jobs.page';
import { overviewPage } from './overview.page';
import { sagasPage } from './sagas.page';
import { sourcesPage } from './sources.page';
import { tokensPage } from './tokens.page';
import { webhookEndpointsPage } from './webhook-endpoints.page';

/** The console's pages, in the order of the navigation; the first is where it opens. A new page: a file and a line. */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  overviewPage,
  deadLettersPage,
  sagasPage,
  webhookEndpointsPage,
  customersPage,
  sourcesPage,
  jobsPage,
  catalogPage,
  eventTrailPage,
  tokensPage,
];
