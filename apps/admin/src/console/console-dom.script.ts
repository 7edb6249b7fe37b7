/** The styles `table` needs: its rows scroll inside their wrapper instead of widening the page. */
export const TABLE_STYLES = `
  .table-wrap { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eef0f2; vertical-align: top; }
  th { font-weight: 600; color: #57606a; white-space: nowrap; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
`;

/** The dialog `confirmAction` opens. */
export const CONFIRM_DIALOG = `<dialog id="confirm">
  <p id="confirm-text"></p>
  <form method="dialog"><button value="cancel" id="confirm-cancel">Cancel</button> <button value="ok" id="confirm-ok">Confirm</button></form>
</dialog>`;

/**
 * The DOM helpers the operator console and the customer portal share, as script text declared in the scope of the
 * script that includes it: `$` (an element by id), `el` (an element whose children go in as text, never as HTML),
 * `time` (UTC, without milliseconds), `table` (rows in a table that scrolls inside its wrapper) and `confirmAction`
 * (the `#confirm` dialog of CONFIRM_DIALOG, resolving true when confirmed).
 */
export const DOM_HELPERS_SCRIPT = `
  const $ = (id) => document.getElementById(id);

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** ISO time without milliseconds, in UTC like every time hookrail shows. */
  function time(value) {
    if (!value) return '';
    const text = new Date(value).toISOString();
    return text.slice(0, 10) + ' ' + text.slice(11, 19) + 'Z';
  }

  /** A table inside a scrolling wrapper; columns: { title, key, render?, class?, numeric? }. */
  function table(columns, rows, rowAttributes) {
    if (rows.length === 0) return el('p', {}, 'none');
    return el('div', { class: 'table-wrap' }, el('table', {},
      el('thead', {}, el('tr', {}, columns.map((column) => el('th', { class: column.numeric ? 'num' : undefined }, column.title)))),
      el('tbody', {}, rows.map((row) => el('tr', rowAttributes ? rowAttributes(row) : {}, columns.map((column) => {
        const value = column.render ? column.render(row) : row[column.key];
        const classes = [column.numeric ? 'num' : '', column.class ? column.class(row) : ''].filter(Boolean).join(' ');
        return el('td', { class: classes || undefined, 'data-column': column.key }, value);
      }))))));
  }

  function confirmAction(text) {
    return new Promise((resolve) => {
      const dialog = $('confirm');
      $('confirm-text').textContent = text;
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
      dialog.showModal();
    });
  }
`;
