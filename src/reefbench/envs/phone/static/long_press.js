(() => {
  let start = null;
  const opts = { capture: true, passive: true };
  addEventListener('touchstart', (e) => {
    const t = e.touches[0];
    start = e.touches.length === 1 ? { at: Date.now(), x: t.clientX, y: t.clientY, target: e.target } : null;
  }, opts);
  addEventListener('touchmove', (e) => {
    const t = e.touches[0];
    if (start && Math.hypot(t.clientX - start.x, t.clientY - start.y) > 10) start = null;
  }, opts);
  addEventListener('touchend', (e) => {
    if (start && Date.now() - start.at >= 500) {
      e.preventDefault();
      start.target.dispatchEvent(new MouseEvent('contextmenu',
        { bubbles: true, cancelable: true, clientX: start.x, clientY: start.y }));
    }
    start = null;
  }, { capture: true, passive: false });
})();
