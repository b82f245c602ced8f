() => {
  // Visible text of the viewport that is not inside an interactive element, one entry per
  // block (a paragraph, a table cell, a list item): what a page says rather than offers
  // (a mail's body, an event's place). The caller caps and de-duplicates it.
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
      if (!display.startsWith('inline') && display !== 'contents') return node;
      node = node.parentElement;
    }
    return document.body;
  };
  const out = [];
  const texts = new Map();
  if (!document.body) return out;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const data = text.data.replace(/\s+/g, ' ').trim();
    const parent = text.parentElement;
    if (!data || !parent || SKIP.has(parent.tagName) || parent.closest(INTERACTIVE)) continue;
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
