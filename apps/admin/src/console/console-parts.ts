/**
 * A page of the operator console: an entry in the navigation, its static markup (no data in it) and its script, which
 * registers it with `hookrail.page({ id, refresh(param) })`. A new page is one file in `pages/` and one line in
 * `pages/index.ts`; its data comes from the /admin API like everything else.
 */
export interface ConsolePage {
  id: string;
  title: string;
  /** What a token needs to see the page in the navigation (the API refuses the rest anyway); absent: reading. */
  needs?: 'operate' | 'administer';
  markup: string;
  script: string;
}

/**
 * A panel of the overview page: its markup and its script, which registers it with `hookrail.panel({ id, refresh() })`.
 * A new panel is one file in `panels/` and one line in `panels/index.ts`.
 */
export interface ConsolePanel {
  id: string;
  markup: string;
  script: string;
}
