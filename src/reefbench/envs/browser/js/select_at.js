([x, y, option]) => {
  const el = document.elementFromPoint(x, y);
  const select = el && (el.closest('select') || (el.tagName === 'LABEL' && el.control));
  if (!select || select.tagName !== 'SELECT') return 'not a drop-down list';
  const wanted = option.trim().toLowerCase();
  const found = Array.from(select.options).find(
    (o) => o.text.trim().toLowerCase() === wanted || o.value.toLowerCase() === wanted);
  if (!found) return 'options are: ' + Array.from(select.options).map((o) => o.text.trim()).join(', ');
  select.value = found.value;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return '';
}
