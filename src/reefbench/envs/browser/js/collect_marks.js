() => {
  const SELECTOR = 'a[href], button, input:not([type=hidden]), select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], ' +
    '[role=menuitem], [role=option], [role=textbox], [role=combobox], [role=searchbox], ' +
    '[role=slider], [contenteditable=""], [contenteditable=true], [onclick], [tabindex]';
  const implicit = (el) => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'input') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (['button', 'submit', 'reset', 'image'].includes(t)) return 'button';
      if (t === 'checkbox') return 'checkbox';
      if (t === 'radio') return 'radio';
      if (t === 'range') return 'slider';
      if (t === 'search') return 'searchbox';
      return 'textbox';
    }
    if (el.isContentEditable) return 'textbox';
    return 'button';
  };
  const shownOption = (el) => (el.selectedOptions.length ? el.selectedOptions[0].text : '');
  const TEXT_INPUTS = ['text', 'email', 'search', 'tel', 'url', 'number', 'password', 'date',
    'time', 'datetime-local', 'month', 'week', 'color', 'range'];
  // A field's current value (null: not a field). A password shows as bullets.
  const valueOf = (el) => {
    const tag = el.tagName;
    if (tag === 'SELECT') return shownOption(el);
    if (tag === 'TEXTAREA') return el.value;
    if (tag === 'INPUT') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (!TEXT_INPUTS.includes(t)) return null;
      return t === 'password' ? '\u2022'.repeat(el.value.length) : el.value;
    }
    if (el.isContentEditable) return el.innerText;
    return null;
  };
  // What the name cannot say: on/off, selected, expanded, disabled.
  const statesOf = (el, role) => {
    const out = [];
    const t = (el.getAttribute('type') || '').toLowerCase();
    if (el.tagName === 'INPUT' && (t === 'checkbox' || t === 'radio')) {
      out.push(el.checked ? 'checked' : 'unchecked');
    } else if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
      out.push(el.getAttribute('aria-checked') === 'true' ? 'checked' : 'unchecked');
    } else if (el.hasAttribute('aria-pressed')) {
      out.push(el.getAttribute('aria-pressed') === 'true' ? 'checked' : 'unchecked');
    }
    if (el.getAttribute('aria-selected') === 'true' ||
        (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false')) out.push('selected');
    const expanded = el.getAttribute('aria-expanded') === 'true' ||
      (el.tagName === 'SUMMARY' && el.parentElement && el.parentElement.open);
    if (expanded) out.push('expanded');
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
    return out;
  };
  const nameOf = (el) => {
    if (el.tagName === 'SELECT') {
      // A drop-down list is named by its label; the option it shows is its value.
      const label = el.getAttribute('aria-label') ||
        (el.labels && el.labels.length ? Array.from(el.labels).map((l) => l.innerText).join(' ') : '');
      return label || shownOption(el);
    }
    const aria = el.getAttribute('aria-label');
    if (aria) return aria;
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const text = by.split(/\\s+/).map((id) => document.getElementById(id))
        .filter(Boolean).map((n) => n.innerText).join(' ');
      if (text.trim()) return text;
    }
    if (el.labels && el.labels.length) {
      const text = Array.from(el.labels).map((l) => l.innerText).join(' ');
      if (text.trim()) return text;
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && ['submit', 'button', 'reset'].includes(el.type)) return el.value;
    const text = (el.innerText || '').trim();
    if (text && tag !== 'textarea') return text;
    return el.getAttribute('placeholder') || el.getAttribute('title') ||
      el.getAttribute('alt') || el.getAttribute('name') || '';
  };
  // An empty field shows its placeholder in grey: a labelled one says it as a hint
  // (reefbench.environments.grounding.HINT_SEPARATOR).
  const withHint = (el, name) => {
    const hint = (el.getAttribute('placeholder') || '').trim();
    if (!hint || valueOf(el) || !name || name.trim().toLowerCase() === hint.toLowerCase()) return name;
    return name + ', hint: ' + hint;
  };
  const out = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (el.getAttribute('tabindex') === '-1' && !el.matches('a, button, input, select, textarea, [role]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    // A control wrapped in an interactive element (a button inside a link) is one mark.
    const parent = el.parentElement && el.parentElement.closest(SELECTOR);
    if (parent && parent.getBoundingClientRect().width > 0 &&
        parent.contains(el) && !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const pr = parent.getBoundingClientRect();
      if (Math.abs(pr.width - r.width) < 2 && Math.abs(pr.height - r.height) < 2) continue;
    }
    const role = el.getAttribute('role') || implicit(el);
    out.push({ role, name: withHint(el, nameOf(el).replace(/\\s+/g, ' ').trim()), value: valueOf(el),
               states: statesOf(el, role), x: r.left, y: r.top, w: r.width, h: r.height });
  }
  return out;
}
