() => {
  let n = 0;
  const wins = [window];
  for (let i = 0; i < wins.length; i++) {
    try {
      n += wins[i].__reef ? wins[i].__reef.scrolls : 0;
      for (const f of wins[i].document.querySelectorAll('iframe, frame')) {
        try { if (f.contentWindow && f.contentWindow.document) wins.push(f.contentWindow); } catch (e) {}
      }
    } catch (e) {}
  }
  return n;
}
