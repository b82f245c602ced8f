(() => {
  if (window.__reef) return;
  // fetches: the page's own fetch() calls in flight (id -> start), counted from the call
  // itself, before the browser reports the request to the harness (it may do so after the
  // action has already looked settled: a switch's change saved by a fetch was lost when the
  // next action navigated away).
  const state = {
    last: Date.now(), expectNav: 0, busy: 0, scrolls: 0, downloads: 0, fetches: new Map(),
  };
  Object.defineProperty(window, '__reef', { value: state });
  const fetch = window.fetch;
  if (fetch) {
    let next = 0;
    window.fetch = function (...args) {
      const id = ++next;
      state.fetches.set(id, Date.now());
      const done = () => { state.fetches.delete(id); state.last = Date.now(); };
      const answer = fetch.apply(this, args);
      answer.then(done, done);
      return answer;
    };
  }
  const watch = () => new MutationObserver(() => { state.last = Date.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  watch();
  addEventListener('scroll', () => { state.last = Date.now(); state.scrolls++; }, { capture: true, passive: true });
  // Noted at once; withdrawn after the event if a later handler cancelled it.
  const note = (e) => {
    state.expectNav = Date.now();
    setTimeout(() => { if (e.defaultPrevented) state.expectNav = 0; }, 0);
  };
  window.addEventListener('click', (e) => {
    if (e.defaultPrevented || !e.target || !e.target.closest) return;
    const a = e.target.closest('a[href]');
    if (!a) return;
    const href = a.getAttribute('href') || '';
    // A download link starts a download, not a navigation: counted, so the harness waits
    // for the browser to report it (it does so a moment after the click).
    if (a.hasAttribute('download')) { state.downloads++; return; }
    if (href.startsWith('#') || href.startsWith('javascript:')) return;
    note(e);
  });
  window.addEventListener('submit', (e) => { if (!e.defaultPrevented) note(e); });
})();
