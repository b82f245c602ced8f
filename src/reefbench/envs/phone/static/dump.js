// DOM -> Android view hierarchy, as uiautomator would report it.
//
// A function expression: (args) => nodes. args = {dpr, pkg, ox, oy, clip:[x1,y1,x2,y2]}.
// Each node is [class, text, resourceId, package, contentDesc, hint, flags, x1, y1, x2, y2,
// children] with bounds in device pixels. Elements that mean nothing on their own (layout
// wrappers) are left out and their children move up, as uiautomator's compressed dumps do;
// nodes entirely outside the visible area are left out, as on a device. Same-origin iframes
// are walked in place; a cross-origin one becomes ["#frame", name, ...box] for the caller
// to fill in.
(args) => {
  const F = { checkable: 1, checked: 2, clickable: 4, enabled: 8, focusable: 16, focused: 32,
    scrollable: 64, long: 128, password: 256, selected: 512 };
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'META', 'LINK', 'TITLE', 'OPTION', 'DATALIST']);
  const INLINE = new Set(['SPAN', 'B', 'I', 'EM', 'STRONG', 'SMALL', 'CODE', 'TIME', 'ABBR', 'MARK',
    'SUB', 'SUP', 'BR', 'WBR', 'S', 'U', 'Q', 'CITE', 'KBD', 'VAR', 'FONT', 'DEL', 'INS', 'DATA']);
  const CLICK_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'switch', 'checkbox', 'radio', 'treeitem']);
  const TEXT_TYPES = new Set(['text', 'email', 'search', 'tel', 'url', 'number', 'password', 'date',
    'time', 'datetime-local', 'month', 'week', '']);
  const dpr = args.dpr;
  const px = (v) => Math.round(v * dpr);
  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim();

  const hiddenAria = (el) => el.getAttribute('aria-hidden') === 'true';
  // Visible text of an element, skipping aria-hidden parts (icon glyphs) and hidden nodes.
  const textOf = (el) => {
    let out = '';
    for (const child of el.childNodes) {
      if (child.nodeType === 3) out += child.data;
      else if (child.nodeType === 1 && !hiddenAria(child) && !SKIP.has(child.tagName)) {
        if (child.tagName === 'BR') out += ' ';
        else out += textOf(child);
      }
    }
    return out;
  };
  const isTextLeaf = (el) => {
    for (const d of el.querySelectorAll('*')) {
      if (!INLINE.has(d.tagName) && !hiddenAria(d)) return false;
    }
    return squash(textOf(el)) !== '';
  };
  const labelText = (el) => {
    if (el.labels && el.labels.length) return squash(Array.from(el.labels).map(textOf).join(' '));
    return '';
  };
  const intersect = (a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  const empty = (b) => b[2] - b[0] < 1 || b[3] - b[1] < 1;

  const kindOf = (el, role) => {
    const tag = el.tagName;
    if (el.dataset && el.dataset.class) return el.dataset.class;
    if (tag === 'INPUT') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (t === 'checkbox') return role === 'switch' ? 'android.widget.Switch' : 'android.widget.CheckBox';
      if (t === 'radio') return 'android.widget.RadioButton';
      if (t === 'range') return 'android.widget.SeekBar';
      if (['button', 'submit', 'reset', 'image', 'file', 'color'].includes(t)) return 'android.widget.Button';
      return 'android.widget.EditText';
    }
    if (tag === 'TEXTAREA' || el.isContentEditable) return 'android.widget.EditText';
    if (tag === 'SELECT') return 'android.widget.Spinner';
    if (role === 'switch') return 'android.widget.Switch';
    if (role === 'checkbox') return 'android.widget.CheckBox';
    if (role === 'radio') return 'android.widget.RadioButton';
    if (role === 'tab') return 'android.widget.TextView';
    // A toggle button (aria-pressed) is Android's ToggleButton: checkable, checked when on.
    if ((tag === 'BUTTON' || role === 'button') && el.hasAttribute('aria-pressed')) return 'android.widget.ToggleButton';
    if (tag === 'BUTTON' || role === 'button') return 'android.widget.Button';
    if (tag === 'IMG' || tag === 'svg' || tag === 'CANVAS' || role === 'img') return 'android.widget.ImageView';
    if (tag === 'UL' || tag === 'OL' || role === 'list' || role === 'listbox') return 'android.widget.ListView';
    if (tag === 'TABLE' || role === 'grid') return 'android.widget.GridView';
    if (role === 'dialog' || tag === 'DIALOG') return 'android.widget.FrameLayout';
    return null;
  };

  const walk = (el, ctx, out) => {
    if (el.nodeType !== 1 || SKIP.has(el.tagName) || el.hidden || hiddenAria(el)) return;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
      // display:contents has no box but its children do.
      if (getComputedStyle(el).display !== 'contents') return;
    }
    const pkg = (el.dataset && el.dataset.package) || ctx.pkg;
    const r = el.getBoundingClientRect();
    const box = [r.left + ctx.ox, r.top + ctx.oy, r.right + ctx.ox, r.bottom + ctx.oy];
    const seen = intersect(box, ctx.clip);
    const tag = el.tagName;

    if (tag === 'IFRAME' || tag === 'FRAME') {
      if (empty(seen)) return;
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      const inner = [box[0] + el.clientLeft, box[1] + el.clientTop, box[0] + el.clientLeft + el.clientWidth, box[1] + el.clientTop + el.clientHeight];
      if (!doc || !doc.body) {
        out.push(['#frame', el.name || el.id || '', pkg, px(seen[0]), px(seen[1]), px(seen[2]), px(seen[3])]);
        return;
      }
      const sub = { pkg, ox: inner[0], oy: inner[1], clip: intersect(ctx.clip, inner), doc };
      const children = [];
      walk(doc.body, sub, children);
      const scroller = doc.scrollingElement;
      const flags = F.enabled | (scroller && scroller.scrollHeight > scroller.clientHeight + 1 ? F.scrollable : 0);
      const frameId = el.id ? pkg + ':id/' + el.id : '';
      out.push(['android.widget.FrameLayout', '', frameId, pkg, '', '', flags, px(seen[0]), px(seen[1]), px(seen[2]), px(seen[3]), children]);
      return;
    }

    const role = (el.getAttribute('role') || '').toLowerCase();
    const doc = ctx.doc || document;
    const isField = (tag === 'INPUT' && TEXT_TYPES.has((el.getAttribute('type') || '').toLowerCase())) || tag === 'TEXTAREA' || el.isContentEditable;
    const isLink = tag === 'A' && el.hasAttribute('href');
    const clickable = isLink || tag === 'BUTTON' || tag === 'SELECT' || tag === 'SUMMARY' || tag === 'INPUT' || isField ||
      CLICK_ROLES.has(role) || el.hasAttribute('onclick') || (el.dataset && 'clickable' in el.dataset);
    let cls = kindOf(el, role);
    const style = getComputedStyle(el);
    const canScroll = (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) ||
      (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1);
    const layout = /(Layout|ViewGroup|RecyclerView|ListView|GridView|ScrollView)$/.test(cls || '');
    const leaf = !isField && tag !== 'SELECT' && !layout && isTextLeaf(el);
    if (!cls) {
      if (canScroll) cls = style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !(el.scrollHeight > el.clientHeight + 1)
        ? 'android.widget.HorizontalScrollView' : 'android.widget.ScrollView';
      else if (leaf) cls = 'android.widget.TextView';
      else if (clickable || tag === 'LI' || tag === 'TR' || el.id || role || el.getAttribute('aria-label')) cls = tag === 'LI' || tag === 'TR' ? 'android.widget.LinearLayout' : 'android.view.ViewGroup';
    }
    // Children first: text nodes directly inside a container become TextViews of their own.
    const children = [];
    if (!leaf && !isField && tag !== 'SELECT') {
      const wrapsControl = tag === 'LABEL' && el.control && el.contains(el.control);
      for (const child of el.childNodes) {
        if (child.nodeType === 3) {
          const text = squash(child.data);
          if (!text || wrapsControl) continue;
          const range = doc.createRange();
          range.selectNodeContents(child);
          const tr = range.getBoundingClientRect();
          const tb = intersect([tr.left + ctx.ox, tr.top + ctx.oy, tr.right + ctx.ox, tr.bottom + ctx.oy], ctx.clip);
          if (empty(tb)) continue;
          children.push(['android.widget.TextView', text, '', pkg, '', '', F.enabled, px(tb[0]), px(tb[1]), px(tb[2]), px(tb[3]), []]);
        } else {
          walk(child, { ...ctx, pkg, clip: canScroll || style.overflow !== 'visible' ? intersect(ctx.clip, box) : ctx.clip }, children);
        }
      }
    }
    if (!cls || empty(seen)) { out.push(...children); return; }

    let text = '';
    let hint = el.getAttribute('placeholder') || '';
    let desc = el.getAttribute('aria-label') || el.getAttribute('alt') || '';
    if (isField) {
      text = el.isContentEditable ? squash(el.innerText) : el.value;
      if (el.type === 'password') text = '•'.repeat(text.length);
      // Named by its visible label, as TalkBack reads a field with android:labelFor; the
      // placeholder stays the hint (what the empty field shows in grey).
      if (!desc) desc = labelText(el);
    } else if (tag === 'SELECT') {
      text = el.selectedOptions.length ? squash(el.selectedOptions[0].text) : '';
      if (!desc) desc = labelText(el);
    } else if (tag === 'INPUT') {
      const t = (el.getAttribute('type') || '').toLowerCase();
      text = ['checkbox', 'radio'].includes(t) ? labelText(el) : (el.value || '');
    } else if (leaf) {
      text = squash(textOf(el));
    }
    if (desc && desc === text) desc = (el.dataset && el.dataset.class === 'android.widget.TextView') ? desc : '';
    let flags = 0;
    const checkable = tag === 'INPUT' && ['checkbox', 'radio'].includes((el.getAttribute('type') || '').toLowerCase());
    const pressable = cls === 'android.widget.ToggleButton' && el.hasAttribute('aria-pressed');
    if (checkable || pressable || ['switch', 'checkbox', 'radio'].includes(role)) {
      flags |= F.checkable;
      const on = checkable ? el.checked : el.getAttribute(pressable ? 'aria-pressed' : 'aria-checked') === 'true';
      if (on) flags |= F.checked;
    }
    if (clickable) flags |= F.clickable;
    if (!el.disabled && el.getAttribute('aria-disabled') !== 'true') flags |= F.enabled;
    if (clickable || el.tabIndex >= 0 && el.hasAttribute('tabindex')) flags |= F.focusable;
    if (doc.activeElement === el && el !== doc.body) flags |= F.focused;
    if (canScroll) flags |= F.scrollable;
    if (el.dataset && 'longClick' in el.dataset) flags |= F.long;
    if (tag === 'INPUT' && el.type === 'password') flags |= F.password;
    if (el.getAttribute('aria-selected') === 'true' || (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false')) flags |= F.selected;
    let rid = el.id || (isField || tag === 'SELECT' || tag === 'INPUT' ? el.getAttribute('name') || '' : '');
    if (rid) rid = pkg + ':id/' + rid;
    out.push([cls, text, rid, pkg, squash(desc), squash(hint), flags, px(seen[0]), px(seen[1]), px(seen[2]), px(seen[3]), children]);
  };

  const roots = [];
  const pkg = args.pkg || (window.phone ? window.phone.status().package : '');
  walk(document.body, { pkg, ox: args.ox, oy: args.oy, clip: args.clip, doc: document }, roots);
  return roots;
}
