// Behaviour of the phone's own apps. Changes go to /__phone/api/*, which the phone
// environment answers in Python (the state never lives only in the page).
(() => {
  // A request whose answer leads to another page: tell the settle probe a navigation is
  // coming, so an action does not count as done between the answer and the new page.
  const navigating = () => { if (window.__reef) window.__reef.busy = Date.now(); };
  const api = (path, body) => fetch('/__phone/api/' + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }).then((r) => r.json()).then((answer) => {
    if (answer.error) {
      const p = document.createElement('p');
      p.id = 'error'; p.setAttribute('role', 'alert'); p.textContent = answer.error;
      document.body.prepend(p);
      throw new Error(answer.error);
    }
    if (window.top.phone && answer.state) window.top.phone.applyState(answer.state);
    return answer;
  });
  for (const sw of document.querySelectorAll('[data-setting]')) {
    sw.addEventListener('change', () => api('settings', { key: sw.dataset.setting, value: sw.checked }));
  }
  const nameForm = document.querySelector('[data-setting-form]');
  if (nameForm) {
    nameForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const value = nameForm.querySelector('input').value;
      navigating();
      api('settings', { key: nameForm.dataset.settingForm, value })
        .then(() => { if (navigation.canGoBack) navigation.back(); else location.href = '/__phone/app/settings'; });
    });
  }
  const digits = document.getElementById('digits');
  for (const key of document.querySelectorAll('[data-digit]')) {
    key.addEventListener('click', () => { digits.value += key.dataset.digit; });
  }
  const del = document.getElementById('delete');
  if (del) del.addEventListener('click', () => { digits.value = digits.value.slice(0, -1); });
  const dial = document.getElementById('dial_form');
  if (dial) {
    dial.addEventListener('submit', (e) => {
      e.preventDefault();
      navigating();
      api('call', { number: digits.value }).then((answer) => {
        location.href = '/__phone/app/dialer/calling?number=' + encodeURIComponent(answer.call.number);
      });
    });
  }
  for (const el of document.querySelectorAll('[data-href]')) {
    el.addEventListener('click', () => { navigating(); location.href = el.dataset.href; });
  }
  for (const el of document.querySelectorAll('[data-open]')) {
    el.addEventListener('click', () => window.top.phone.open(el.dataset.open));
  }
})();
