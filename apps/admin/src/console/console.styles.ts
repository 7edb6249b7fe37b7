import { TABLE_STYLES } from './console-dom.script';

/**
 * The console's stylesheet: readable at 1280 px and on a 390 px phone (the header wraps, the charts take one column),
 * tables scroll inside their card instead of spilling out of it.
 */
export const CONSOLE_STYLES = `
  * { box-sizing: border-box; }
  /* What a token may not do is hidden, whatever display a rule gives the element. */
  [hidden] { display: none !important; }
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
  header { display: flex; flex-wrap: wrap; gap: .4rem .6rem; align-items: center; padding: .5rem 1.2rem; background: #1d232a; color: #fff; }
  header h1 { font-size: 1.1rem; margin: 0 .4rem 0 0; }
  header nav { display: flex; flex-wrap: wrap; gap: .2rem; min-width: 0; }
  header nav a { color: #c9d1d9; text-decoration: none; padding: .3rem .45rem; border-radius: 4px; white-space: nowrap; }
  header nav a.active, header nav a:hover { background: #31383f; color: #fff; }
  header .spacer { flex: 1; }
  header form { display: flex; gap: .3rem; min-width: 0; }
  header form input { min-width: 0; }
  header #who, header button { white-space: nowrap; }
  main, #login { padding: 1rem 1.2rem; max-width: 1600px; margin: 0 auto; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: .8rem 1rem; margin-bottom: 1rem; min-width: 0; }
  h2 { font-size: 1rem; margin: 0 0 .6rem; }
  h3 { font-size: .9rem; margin: .8rem 0 .4rem; color: #57606a; }
${TABLE_STYLES}
  td.message { max-width: 13rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .sub { display: block; color: #57606a; font-size: .85em; }
  td.nowrap, td[data-column=actions] { white-space: nowrap; }
  .cards { display: flex; gap: 1rem; flex-wrap: wrap; }
  .card { border: 1px solid #dde1e6; border-radius: 6px; padding: .5rem .8rem; min-width: 8rem; background: #fff; }
  .card b { display: block; font-size: 1.4rem; }
  .card.bad { border-color: #b42318; color: #b42318; }
  .status-dead { color: #b42318; } .status-replaying { color: #b54708; } .status-resolved { color: #067647; } .status-purged { color: #57606a; } .status-parked { color: #8250df; }
  tr.overdue td { background: #fef3f2; color: #b42318; }
  .banner { background: #fef3f2; border: 1px solid #b42318; color: #b42318; border-radius: 6px; padding: .6rem 1rem; margin-bottom: 1rem; }
  .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(360px, 100%), 1fr)); gap: 1rem; }
  figure.chart { margin: 0; min-width: 0; }
  figure.chart figcaption { font-weight: 600; margin-bottom: .3rem; }
  figure.chart .plot { width: 100%; min-height: 170px; }
  figure.chart .empty { color: #57606a; margin: .3rem 0; }
  pre { background: #f6f7f9; padding: .6rem; overflow: auto; max-height: 20rem; white-space: pre-wrap; word-break: break-all; }
  button { cursor: pointer; }
  .link { background: none; border: none; color: #0969da; padding: 0; text-decoration: underline; font: inherit; }
  #flash { min-height: 1.2rem; margin: 0 0 .5rem; color: #067647; } #flash.error { color: #b42318; }
  dialog { border: 1px solid #dde1e6; border-radius: 6px; max-width: 36rem; }
  ol.timeline { list-style: none; margin: 0; padding: 0; border-left: 2px solid #dde1e6; }
  ol.timeline li { position: relative; padding: .35rem 0 .35rem 1.2rem; }
  ol.timeline li::before { content: ''; position: absolute; left: -7px; top: .7rem; width: 12px; height: 12px; border-radius: 50%; background: #8c959f; }
  ol.timeline li.level-ok::before { background: #067647; } ol.timeline li.level-warn::before { background: #b54708; }
  ol.timeline li.level-error::before { background: #b42318; } ol.timeline li.level-info::before { background: #0969da; }
  ol.timeline .when { color: #57606a; font-variant-numeric: tabular-nums; margin-right: .6rem; }
  ol.timeline .step { font-weight: 600; margin-right: .6rem; }
  ol.timeline details { margin-top: .2rem; }
  .event-head { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin-bottom: .6rem; color: #57606a; }
  .event-head b { color: #1d232a; }
  .filters { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; margin: 0 0 .6rem; }
  button.card { font: inherit; color: inherit; text-align: left; }
  .card.selected { outline: 2px solid #0969da; }
  td.url { word-break: break-all; min-width: 14rem; }
  td.bad { color: #b42318; }
  .state-failed, .state-disabled { color: #b42318; } .state-compensating, .state-pending, .state-sending { color: #b54708; }
  .state-completed, .state-delivered, .state-enabled { color: #067647; } .state-compensated, .state-cancelled { color: #57606a; }
  section.secret { border-color: #b54708; background: #fffaeb; }
  section.secret code { font-size: 1rem; word-break: break-all; user-select: all; }
  details > summary { cursor: pointer; color: #0969da; margin: .6rem 0 .4rem; }
  .banner > div + div { margin-top: .3rem; }
  .history { color: #8c959f; font-style: italic; }
  @media (max-width: 640px) {
    header { padding: .5rem .8rem; }
    header h1 { margin-right: 0; }
    header .spacer { display: none; }
    header form { flex: 1 1 100%; }
    header form input { flex: 1; }
    main, #login { padding: .6rem; }
    section { padding: .6rem; }
  }
`;
