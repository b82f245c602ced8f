() => {
  // Visible text of the viewport that is not inside an interactive element, one entry per
  // block (a paragraph, a table cell, a list item): what a page says rather than offers
  // (a mail's body, an event's place). The caller caps and de-duplicates it.
  // An element's content is its name, so it is not repeated here, except where an
  // aria-label replaced that name: a card link named "Note Party 3" whose blocks list a
  // checklist's items says them only here (text its label already holds is left out).
  const INTERACTIVE = 'a[href], button, input, select, textarea, summary, option, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], ' +
    '[role=menuitem], [role=option], [role=textbox], [role=combobox], [role=searchbox], ' +
    '[role=slider], [contenteditable=""], [contenteditable=true]';
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  const vw = window.innerWidth, vh = window.innerHeight;
  const blockOf = (el) => {
    let node = el;
    while (node && node !== document.body) {
      const display = getComputedStyle(node).display;
      // A visually hidden span ("(checked)" for screen readers) is blockified by its
      // absolute position but belongs to the line it annotates.
      const box = node.getBoundingClientRect();
      const hidden = box.width <= 1 && box.height <= 1;
      if (!display.startsWith('inline') && display !== 'contents' && !hidden) return node;
      node = node.parentElement;
    }
    return document.body;
  };
  const squash = (value) => value.replace(/\s+/g, ' ').trim().toLowerCase();
  // Text in ``control`` that its accessible name does not say: the control is named by
  // an aria-label, lays its content out in blocks (a card, not a one-word button), and
  // the label does not hold the text.
  const unnamedContent = (control, parent, data) => {
    const label = control.getAttribute('aria-label');
    if (!label || control.hasAttribute('aria-labelledby')) return false;
    const block = blockOf(parent);
    if (block !== control && !control.contains(block)) return false;
    return !squash(label).includes(squash(data));
  };
  const out = [];
  const texts = new Map();
  if (!document.body) return out;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const data = text.data.replace(/\s+/g, ' ').trim();
    const parent = text.parentElement;
    if (!data || !parent || SKIP.has(parent.tagName)) continue;
    const control = parent.closest(INTERACTIVE);
    if (control && !unnamedContent(control, parent, data)) continue;
    // A label's text is already its control's name.
    if (parent.closest('label, [aria-hidden=true], [hidden]')) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
    const block = blockOf(parent);
    if (!texts.has(block)) {
      texts.set(block, []);
      out.push(texts.get(block));
    }
    texts.get(block).push(data);
  }
  return out.map((parts) => parts.join(' '));
}
