([grace, longRequest]) => {
  const now = Date.now();
  const wins = [window];
  let ready = true, nav = false, quiet = 1e9;
  for (let i = 0; i < wins.length; i++) {
    let doc;
    try { doc = wins[i].document; } catch (e) { continue; }
    for (const f of doc.querySelectorAll('iframe, frame')) {
      try {
        const w = f.contentWindow;
        if (!w || !w.document) continue;
        // A frame given a src still shows its initial about:blank (readyState "complete")
        // until the src's document arrives: it is loading.
        const src = f.getAttribute('src');
        if (src && !src.startsWith('about:') && w.location.href === 'about:blank') ready = false;
        wins.push(w);
      } catch (e) {}
    }
  }
  for (const w of wins) {
    let doc;
    try { doc = w.document; } catch (e) { continue; }
    if (doc.readyState !== 'complete') ready = false;
    const s = w.__reef;
    if (!s) continue;
    quiet = Math.min(quiet, now - s.last);
    if ((s.expectNav && now - s.expectNav < grace) || (s.busy && now - s.busy < grace)) nav = true;
    // A fetch of the page's own that has not answered yet (long polls excepted).
    for (const started of (s.fetches ? s.fetches.values() : [])) {
      if (now - started < longRequest) nav = true;
    }
  }
  return { ready, nav, quiet };
}
